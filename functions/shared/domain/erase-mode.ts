/**
 * What a commenter's erase (`DELETE /api/my-data`) leaves of an erased comment others answered
 * (ERASE_WITH_REPLIES): the deleted placeholder (its text replaced by `[deleted]`, as an author's own delete
 * leaves it), or anonymised (its text kept, its name "Anonymous"). Either keeps the replies' thread.
 */
export type ErasedWithReplies = 'placeholder' | 'anonymise';
