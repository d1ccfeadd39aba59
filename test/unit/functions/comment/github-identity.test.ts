import { describe, expect, it } from 'vitest';
import { githubProvider, identityOfGithubUser } from '../../../../functions/comment/github-sign-in.js';

const user = {
  id: 583231,
  login: 'octocat',
  name: 'The Octocat',
  avatar_url: 'https://avatars.githubusercontent.com/u/583231',
  html_url: 'https://github.com/octocat',
  blog: 'octo.example.test',
};

describe('identityOfGithubUser', () => {
  it('keys the identity by the numeric id and takes the primary verified address', () => {
    expect(
      identityOfGithubUser(user, [
        { email: 'other@example.test', primary: false, verified: true },
        { email: 'octo@example.test', primary: true, verified: true },
      ]),
    ).toEqual({
      provider: 'github',
      subject: '583231',
      profile: {
        displayName: 'The Octocat',
        link: 'https://octo.example.test',
        avatar: 'https://avatars.githubusercontent.com/u/583231',
      },
      email: { address: 'octo@example.test', verified: true },
    });
  });

  it('takes no address when the primary one is not verified, and the login when there is no name', () => {
    const identity = identityOfGithubUser({ ...user, name: null, blog: '' }, [
      { email: 'octo@example.test', primary: true, verified: false },
      { email: 'other@example.test', primary: false, verified: true },
    ]);
    expect(identity?.email).toBeUndefined();
    expect(identity?.profile).toMatchObject({ displayName: 'octocat', link: 'https://github.com/octocat' });
  });

  it('refuses an answer without a positive whole id', () => {
    expect(identityOfGithubUser({ ...user, id: '583231' }, [])).toBeUndefined();
    expect(identityOfGithubUser({ ...user, id: 0 }, [])).toBeUndefined();
    expect(identityOfGithubUser({ ...user, id: 1.5 }, [])).toBeUndefined();
    expect(identityOfGithubUser(null, [])).toBeUndefined();
  });

  it("keys a GitHub Enterprise server apart from github.com: its numeric ids are another GitHub's", () => {
    expect(githubProvider('https://github.com')).toBe('github');
    expect(githubProvider('https://git.example.com')).toBe('github:https://git.example.com');
    expect(identityOfGithubUser(user, [], githubProvider('https://git.example.com'))?.provider).toBe(
      'github:https://git.example.com',
    );
  });
});
