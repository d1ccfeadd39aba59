/** Languages the service answers errors in. */
export type Lang = 'en' | 'zh-CN';

/**
 * The widget sends `lang` as its locale (`zh-CN`, `zh`, `en-US`, ...). Every Chinese variant maps
 * to `zh-CN`; anything else, or nothing, to `en`.
 */
export function resolveLang(raw: string | undefined): Lang {
  return raw?.trim().toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

const catalog = {
  duplicate: { en: 'Duplicate Content', 'zh-CN': '发送的内容之前已经发过' },
  rateLimited: { en: 'Comment too fast!', 'zh-CN': '评论太快啦，请稍后再试！' },
  routeNotFound: { en: 'url `{path}` not found.', 'zh-CN': '地址 `{path}` 不存在。' },
  methodNotAllowed: {
    en: 'Method {method} is not allowed on {path}.',
    'zh-CN': '{path} 不支持 {method} 方法。',
  },
  commentNotFound: { en: 'Comment {id} not found.', 'zh-CN': '评论 {id} 不存在。' },
  parentNotFound: {
    en: '{field}: comment {id} does not exist on this url, or is not the thread it claims.',
    'zh-CN': '{field}：评论 {id} 不在此页面，或与所属讨论串不符。',
  },
  bodyTooLarge: {
    en: 'Request body is larger than {limit} bytes.',
    'zh-CN': '请求体超过 {limit} 字节。',
  },
  commentTooLarge: {
    en: 'comment: with its rendered HTML it is larger than {limit} bytes; shorten it.',
    'zh-CN': 'comment：评论连同渲染后的 HTML 超过 {limit} 字节，请缩短。',
  },
  invalidJson: { en: 'body: must be valid JSON.', 'zh-CN': 'body：必须是合法的 JSON。' },
  jsonRequired: {
    en: 'Content-Type must be application/json.',
    'zh-CN': 'Content-Type 必须是 application/json。',
  },
  invalidInput: { en: 'Invalid input: {problems}', 'zh-CN': '输入无效：{problems}' },
  signInRequired: {
    en: 'Sign in as its author or an administrator to change a comment; anonymous visitors may only send {"like": true|false}.',
    'zh-CN': '修改评论需要以作者或管理员身份登录；匿名访客只能发送 {"like": true|false}。',
  },
  deleteNeedsSignIn: {
    en: 'Sign in as the author or an administrator to delete a comment.',
    'zh-CN': '删除评论需要以作者或管理员身份登录。',
  },
  adminListNeedsSignIn: {
    en: 'Sign in as an administrator to list comments for moderation.',
    'zh-CN': '以管理员身份登录后才能查看审核列表。',
  },
  adminRequired: {
    en: 'Sign in as an administrator to do this.',
    'zh-CN': '请以管理员身份登录后再操作。',
  },
  wrongCredentials: { en: 'Wrong email or password.', 'zh-CN': '邮箱或密码错误。' },
  accountRequired: {
    en: 'Sign in to do this.',
    'zh-CN': '请登录后再操作。',
  },
  confirmAddressFirst: {
    en: 'Confirm your email address first: follow the link mailed to you.',
    'zh-CN': '请先确认邮箱地址：点击发送给你的邮件中的链接。',
  },
  awaitingApproval: {
    en: 'Your account is waiting for an administrator to approve it.',
    'zh-CN': '你的账号正在等待管理员审核。',
  },
  secondFactorRequired: {
    en: 'code: this account needs the code of its authenticator app (or a recovery code).',
    'zh-CN': 'code：此账号需要验证器应用中的验证码（或恢复码）。',
  },
  accountNotFound: { en: 'Account {id} not found.', 'zh-CN': '账号 {id} 不存在。' },
  accountChanged: {
    en: 'Account {id} changed meanwhile; reload it and try again.',
    'zh-CN': '账号 {id} 已被修改，请刷新后重试。',
  },
  tooManySignIns: {
    en: 'Too many sign-in attempts; try again in {minutes} minutes.',
    'zh-CN': '登录尝试过多，请 {minutes} 分钟后再试。',
  },
  wrongSecondFactor: {
    en: 'code: wrong, or already used; wait for the next code of your authenticator app, or use a recovery code.',
    'zh-CN': 'code：错误或已被使用；请等待验证器应用的下一个验证码，或使用恢复码。',
  },
  wrongPassword: { en: 'password: wrong password.', 'zh-CN': 'password：密码错误。' },
  twoFactorNeedsSignIn: {
    en: 'Sign in to set up two-factor sign-in.',
    'zh-CN': '请登录后再设置两步验证。',
  },
  addressChangeUnavailable: {
    en: 'Service unavailable: an address change is confirmed by a mailed link, and this server has no link key (LINK_SECRET) to sign one.',
    'zh-CN':
      '服务不可用：更改邮箱地址需要通过邮件链接确认，而本服务器没有用于签名链接的密钥（LINK_SECRET）。',
  },
  tooManyAddressChanges: {
    en: 'Too many requests: that address was sent {perDay} address-change links today; try again tomorrow.',
    'zh-CN': '请求过多：该地址今天已收到 {perDay} 封更改地址的链接，请明天再试。',
  },
  twoFactorNeedsPassword: {
    en: 'This account signs in through its provider, without a password here: use the second factor your provider offers.',
    'zh-CN': '此账户通过第三方身份提供方登录，本站没有密码：请使用该提供方的两步验证。',
  },
  twoFactorAlreadyOn: {
    en: 'Two-factor sign-in is already on for this account; turn it off first to enrol a new device.',
    'zh-CN': '此账户已开启两步验证；如需绑定新设备，请先关闭。',
  },
  signInDisabled: {
    en: 'Sign-in is not configured on this server (set JWT_TOKEN or JWT_SECRET_PARAMETER).',
    'zh-CN': '此服务器未配置登录（请设置 JWT_TOKEN 或 JWT_SECRET_PARAMETER）。',
  },
  ipBlocked: { en: 'Comments from your address are blocked.', 'zh-CN': '你的地址已被禁止评论。' },
  blockedWord: {
    en: '{field}: contains a word this site does not accept; change it and send again.',
    'zh-CN': '{field}：含有本站不接受的词语，请修改后再发送。',
  },
  restrictedName: {
    en: 'nick: this name is reserved on this site; choose another.',
    'zh-CN': 'nick：该昵称为本站保留，请换一个。',
  },
  readOnly: {
    en: 'This article is closed to new comments: it has been open for {days} days since its first comment.',
    'zh-CN': '此文章已关闭评论：自第一条评论起已开放 {days} 天。',
  },
  adminMailNeedsSignIn: {
    en: 'mail: this address belongs to an administrator of this site; sign in to post with it, or use another.',
    'zh-CN': 'mail：该邮箱属于本站管理员；请登录后再用它发表评论，或换一个邮箱。',
  },
  captchaRequired: {
    en: '{field}: this site asks for a captcha; solve it and send again.',
    'zh-CN': '{field}：本站需要人机验证，请完成验证后重新提交。',
  },
  captchaRefused: {
    en: '{field}: the captcha was not passed ({rule}).',
    'zh-CN': '{field}：人机验证未通过（{rule}）。',
  },
  captchaUnavailable: {
    en: 'The captcha provider could not be reached, so sign-in cannot be checked; try again in a minute.',
    'zh-CN': '无法连接人机验证服务，暂时无法登录；请一分钟后再试。',
  },
  originNotAllowed: {
    en: 'Requests from {origin} are not allowed: it is not one of the sites in ALLOWED_ORIGINS.',
    'zh-CN': '不接受来自 {origin} 的请求：它不在 ALLOWED_ORIGINS 所列的站点中。',
  },
  queryRepeated: {
    en: '{name}: give it once; it was given {count} times.',
    'zh-CN': '{name}：只能提供一次，实际提供了 {count} 次。',
  },
  statusChanged: {
    en: 'Comment {id} changed meanwhile; reload and try again.',
    'zh-CN': '评论 {id} 已被修改，请刷新后重试。',
  },
  // Comments by accounts (issue 27): LOGIN=force, banned accounts, an author's own edit and delete.
  loginRequiredToComment: {
    en: 'Unauthorized: this site takes comments from signed-in readers only (LOGIN=force); sign in and send again.',
    'zh-CN': '未登录：本站只接受登录读者的评论（LOGIN=force），请登录后再发送。',
  },
  accountBanned: {
    en: 'This account is banned from commenting on this site.',
    'zh-CN': '此账户已被禁止在本站评论。',
  },
  notYourComment: {
    en: 'Comment {id} is not yours: only its author or an administrator may change or delete it.',
    'zh-CN': '评论 {id} 不是你的：只有作者或管理员可以修改或删除它。',
  },
  editWindowClosed: {
    en: 'Comment {id} can no longer be edited: its author may edit it for {minutes} minutes after posting (EDIT_WINDOW).',
    'zh-CN': '评论 {id} 已不能编辑：作者只能在发表后 {minutes} 分钟内编辑（EDIT_WINDOW）。',
  },
  ownEditNeedsText: {
    en: 'comment: is required; an author may change the text of their comment, nothing else.',
    'zh-CN': 'comment：必填；作者只能修改自己评论的内容。',
  },
  anonymousCommentNotEditable: {
    en: 'Comment {id} was posted without an account: nobody but an administrator may change or delete it.',
    'zh-CN': '评论 {id} 是匿名发表的：只有管理员可以修改或删除它。',
  },
  internal: { en: 'Internal server error.', 'zh-CN': '服务器内部错误。' },
  upgradeRequired: {
    en: 'The comment table was written by an older version of Marginalia: its operator must run `npm run migrate` (see CHANGELOG.md).',
    'zh-CN': '评论数据表由旧版 Marginalia 写入：管理员需要运行 `npm run migrate`（见 CHANGELOG.md）。',
  },
  pageviewsOnlyGoUp: {
    en: '`desc` applies to reactions only: pageviews only go up',
    'zh-CN': '`desc` 只适用于表态，浏览量只增不减',
  },
  textOmitted: {
    en: 'This comment is too long to show in this list.',
    'zh-CN': '这条评论太长，无法在此列表中显示。',
  },
  userFeedUnknownUser: {
    en: 'No user has the id {id} (user_id): there is no feed of their comments.',
    'zh-CN': '没有 id 为 {id} 的用户（user_id），因此没有其评论的订阅。',
  },
  userFeedBadUserId: {
    en: 'user_id must be a user id: 1 to 64 letters, digits, - or _, given once.',
    'zh-CN': 'user_id 必须是用户 id：1 到 64 个字母、数字、- 或 _，且只能给出一次。',
  },
  feedUserTitle: { en: 'Comments by user {id} · {site}', 'zh-CN': '{site} · 用户 {id} 的评论' },
  feedUserDescription: {
    en: 'The newest approved comments of user {id}.',
    'zh-CN': '用户 {id} 最新通过审核的评论。',
  },
  feedSiteTitle: { en: 'Comments on {site}', 'zh-CN': '{site} 的评论' },
  feedPageTitle: { en: 'Comments on {path} · {site}', 'zh-CN': '{site} · {path} 的评论' },
  feedSiteDescription: {
    en: 'The newest approved comments on {site}.',
    'zh-CN': '{site} 最新通过审核的评论。',
  },
  feedPageDescription: {
    en: 'The newest approved comments on {path}.',
    'zh-CN': '{path} 最新通过审核的评论。',
  },
  feedItemTitle: { en: 'Comment by {nick}', 'zh-CN': '{nick} 的评论' },
  feedAnonymous: { en: 'Anonymous', 'zh-CN': '匿名' },
  registrationClosed: {
    en: 'Registration is closed on this site: commenting needs no account.',
    'zh-CN': '本站未开放注册：发表评论无需账户。',
  },
  tooManyRegistrations: {
    en: 'Too many registrations from your network; try again in {minutes} minutes.',
    'zh-CN': '来自你网络的注册过多，请 {minutes} 分钟后再试。',
  },
  tooManyResets: {
    en: 'Too many password-reset requests from your network; try again in {minutes} minutes.',
    'zh-CN': '来自你网络的重置密码请求过多，请 {minutes} 分钟后再试。',
  },
  registrationUnavailable: {
    en: 'The captcha provider could not be reached, so the registration cannot be checked; try again in a minute.',
    'zh-CN': '无法连接人机验证服务，暂时无法注册；请一分钟后再试。',
  },
  currentPasswordRequired: {
    en: 'currentPassword: give your current password to change the password or the address.',
    'zh-CN': 'currentPassword：修改密码或邮箱地址需要提供当前密码。',
  },
  currentPasswordWrong: {
    en: "currentPassword: this is not the account's password.",
    'zh-CN': 'currentPassword：当前密码不正确。',
  },
  tooManyPasswordChecks: {
    en: 'Too many attempts at the current password; try again in {minutes} minutes.',
    'zh-CN': '当前密码尝试次数过多，请 {minutes} 分钟后再试。',
  },
  administratorsOnlyField: {
    en: '{field}: only administrators set it, with PUT /api/user/{id}.',
    'zh-CN': '{field}：只有管理员可以通过 PUT /api/user/{id} 设置。',
  },
  addressTaken: {
    en: 'email: this address belongs to another account.',
    'zh-CN': 'email：该邮箱地址已属于另一个账户。',
  },
  resetLinkInvalid: {
    en: 'token: the reset link is not valid, has expired or was used already; ask for a new one.',
    'zh-CN': 'token：重置链接无效、已过期或已被使用，请重新申请。',
  },
  tooManyDataRequests: {
    en: 'Too many data requests from your network; try again in {minutes} minutes.',
    'zh-CN': '来自你网络的数据请求过多，请 {minutes} 分钟后再试。',
  },
  dataRequestUnavailable: {
    en: 'The captcha provider could not be reached, so the request cannot be checked; try again in a minute.',
    'zh-CN': '无法连接人机验证服务，暂时无法处理请求；请一分钟后再试。',
  },
  dataLinkRequired: {
    en: 'Authorization: send the token of the link mailed from /ui/my-data, or sign in.',
    'zh-CN': 'Authorization：请提供 /ui/my-data 邮件中链接的令牌，或先登录。',
  },
  dataLinkUsed: {
    en: 'token: this link erased the data already, or has expired; ask for a new one at /ui/my-data.',
    'zh-CN': 'token：此链接已用于删除数据或已过期，请在 /ui/my-data 重新申请。',
  },
  dataLinksOff: {
    en: 'Data links cannot be mailed: the link key (LINK_SECRET) is not set on this site.',
    'zh-CN': '无法发送数据链接：本站未设置链接密钥（LINK_SECRET）。',
  },
  resetLinksOff: {
    en: 'Reset links cannot be mailed: the link key (LINK_SECRET) is not set on this site.',
    'zh-CN': '无法发送重置密码链接：本站未设置链接密钥（LINK_SECRET）。',
  },
  dataCursorInvalid: {
    en: 'cursor: must be the `next` of the previous page, unchanged.',
    'zh-CN': 'cursor：必须是上一页返回的 `next`，原样传回。',
  },
  passkeyRefused: {
    en: 'That passkey was not accepted; try again, or sign in with your password.',
    'zh-CN': '该通行密钥未被接受；请重试，或使用密码登录。',
  },
  passkeyLimit: {
    en: 'This account has {max} passkeys already; remove one first.',
    'zh-CN': '此账户已有 {max} 个通行密钥；请先删除一个。',
  },
  passkeyNeedsFreshSignIn: {
    en: 'Sign in again (within {minutes} minutes) to add or remove a passkey: this account has no password to confirm it with.',
    'zh-CN': '请重新登录（{minutes} 分钟内）后再添加或删除通行密钥：此账户没有可用于确认的密码。',
  },
  passkeyHost: {
    en: 'Passkeys work only where this server is reached by its domain name ({rpId}); it was reached at {host}.',
    'zh-CN': '通行密钥只能在通过域名（{rpId}）访问本服务器时使用；当前访问地址为 {host}。',
  },
  tooManyPasskeySignIns: {
    en: 'Too many passkey sign-ins from your network; try again in {minutes} minutes.',
    'zh-CN': '你的网络通行密钥登录次数过多，请 {minutes} 分钟后再试。',
  },
} as const satisfies Record<string, Record<Lang, string>>;

/** A message of the catalog. */
export type MessageKey = keyof typeof catalog;

/** The message `key` in `lang`, with `{name}` placeholders filled from `params`. */
export function translate(lang: Lang, key: MessageKey, params: Record<string, string | number> = {}): string {
  return catalog[key][lang].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}
