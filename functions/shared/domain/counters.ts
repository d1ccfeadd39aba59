/** Reading counters a page has: pageviews and the widget's nine reactions. */
export const counterNames = [
  'time',
  'reaction0',
  'reaction1',
  'reaction2',
  'reaction3',
  'reaction4',
  'reaction5',
  'reaction6',
  'reaction7',
  'reaction8',
] as const;

/** One reading counter of a page. */
export type CounterName = (typeof counterNames)[number];

/** A reaction counter: counted once per voter. */
export type ReactionName = Exclude<CounterName, 'time'>;

/** True for the reaction counters, false for pageviews. */
export function isReaction(name: CounterName): name is ReactionName {
  return name !== 'time';
}
