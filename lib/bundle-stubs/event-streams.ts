/**
 * Stands in for `@smithy/core/event-streams` in the Lambda bundles. The SDK's HTTP protocols import it
 * dynamically, only to (de)serialise operations that stream events; DynamoDB has none, so the module
 * (about 15 KB minified) is never loaded. Should one be called, it fails loudly.
 */

const refuse = (): never => {
  throw new Error('event streams are not bundled: no DynamoDB operation streams events');
};

/** Refuses: see the module comment. */
export class EventStreamSerde {
  constructor() {
    refuse();
  }
}

/** Refuses: see the module comment. */
export const eventStreamSerdeProvider = refuse;
