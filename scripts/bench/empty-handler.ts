/**
 * A yardstick of the cold-start measure (cold-start.ts): a Lambda handler that imports nothing and answers
 * 200. Its first answer is what starting `node` and the runner costs on the machine, with no code of ours.
 */

/** Answers 200. */
export async function handler(): Promise<{ statusCode: number }> {
  return { statusCode: 200 };
}
