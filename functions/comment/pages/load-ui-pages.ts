import { once } from '../../shared/once.js';

/** The `/ui` pages (ui-pages.ts), imported on the first page request of an instance and kept. */
export const loadUiPages = once(() => import('./ui-pages.js'));
