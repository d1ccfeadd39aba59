/**
 * The pages under `/ui`: sign-in, registration, password reset, the profile, and the administrators' comments and
 * accounts. The comment function imports this module on the first page request (load-ui-pages.ts): no API request
 * needs their HTML and scripts, and every cold start reads all that the entry imports.
 */
export { forgotPage } from './forgot-page.js';
export { loginPage } from './login-page.js';
export { moderationPage } from './moderation-page.js';
export { profilePage } from './profile-page.js';
export { registerPage } from './register-page.js';
export { resetPage } from './reset-page.js';
export { usersPage } from './users-page.js';
