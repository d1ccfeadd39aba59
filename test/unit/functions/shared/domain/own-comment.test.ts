import { describe, expect, it } from 'vitest';
import {
  ownDeleteRefusal,
  ownEditRefusal,
  statusAfterOwnEdit,
} from '../../../../../functions/shared/domain/own-comment.js';

const postedAt = 1_800_000_000_000;
const minute = 60_000;
const mine = { userId: 'acct-1', insertedAt: postedAt };

describe('ownEditRefusal', () => {
  it('lets the author edit up to the last millisecond of the window, and not one after', () => {
    expect(ownEditRefusal(mine, 'acct-1', postedAt, 15)).toBeUndefined();
    expect(ownEditRefusal(mine, 'acct-1', postedAt + 15 * minute, 15)).toBeUndefined();
    expect(ownEditRefusal(mine, 'acct-1', postedAt + 15 * minute + 1, 15)).toBe('window-closed');
  });

  it('closes every window when EDIT_WINDOW is 0', () => {
    expect(ownEditRefusal(mine, 'acct-1', postedAt, 0)).toBe('window-closed');
  });

  it('refuses another account, and an anonymous comment, whatever the time', () => {
    expect(ownEditRefusal(mine, 'acct-2', postedAt, 15)).toBe('not-author');
    expect(ownEditRefusal({ insertedAt: postedAt }, 'acct-1', postedAt, 15)).toBe('anonymous-comment');
  });
});

describe('ownDeleteRefusal', () => {
  it('lets the author delete at any time, refuses anyone else and anonymous comments', () => {
    expect(ownDeleteRefusal(mine, 'acct-1')).toBeUndefined();
    expect(ownDeleteRefusal(mine, 'acct-2')).toBe('not-author');
    expect(ownDeleteRefusal({}, 'acct-1')).toBe('anonymous-comment');
  });
});

describe('statusAfterOwnEdit', () => {
  it('sends an approved comment the filters now hold back to waiting, and never approves a held one', () => {
    expect(statusAfterOwnEdit('approved', 'approved')).toBe('approved');
    expect(statusAfterOwnEdit('approved', 'waiting')).toBe('waiting');
    expect(statusAfterOwnEdit('approved', 'spam')).toBe('waiting');
    expect(statusAfterOwnEdit('waiting', 'approved')).toBe('waiting');
    expect(statusAfterOwnEdit('spam', 'approved')).toBe('spam');
  });
});
