import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import type { MailTransport } from './mail-channel.js';
import { PermanentFailure } from './permanent-failure.js';

/**
 * Mail through Amazon SES (v2 SendEmail) with the function's role: the message as built (Content.Raw), its
 * one recipient as the destination, and the configuration set whose bounce and complaint events come back
 * to suppress an address (SES_CONFIGURATION_SET). The client is built at the first mail, so a notifier
 * that never mails never loads it.
 */

/** What the SES transport needs; tests pass a client. */
export interface SesTransportSettings {
  readonly client?: SESv2Client;
  readonly configurationSet?: string;
}

/**
 * SES's refusals that sending again cannot mend: the message itself (MessageRejected: an unverified address
 * in the sandbox, a virus), the From domain's MAIL FROM setup, a request SES cannot take. Throttling and SES's
 * own failures are temporary.
 */
const permanentErrors = new Set([
  'MessageRejected',
  'MailFromDomainNotVerifiedException',
  'BadRequestException',
]);

/** SES answers in well under a second; a stuck connection must not hold the invocation. */
const requestHandler = { connectionTimeout: 3000, requestTimeout: 10_000 };

/** The SES transport. */
export function createSesTransport(settings: SesTransportSettings): MailTransport {
  let client = settings.client;
  return async (message) => {
    client ??= new SESv2Client({ requestHandler });
    const sent = client.send(
      new SendEmailCommand({
        FromEmailAddress: message.from,
        Destination: { ToAddresses: [message.to] },
        Content: { Raw: { Data: message.raw } },
        ...(settings.configurationSet ? { ConfigurationSetName: settings.configurationSet } : {}),
      }),
    );
    await sent.catch((error: unknown) => {
      if (error instanceof Error && permanentErrors.has(error.name)) {
        throw new PermanentFailure(`${error.name}: ${error.message}`);
      }
      throw error;
    });
  };
}
