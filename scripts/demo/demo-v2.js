// The v2 page: the UMD build of @waline/client 2.x (the global `Waline`, loaded by a classic script first),
// which calls the legacy routes without /api.
import { showRecentComments, widgetOptions } from './demo.js';

const { Waline } = window;
Waline.init(widgetOptions());
document.querySelector('#client-version').textContent = Waline.version;
// The legacy route answers the bare array that the v2 client's own widgets expect.
void showRecentComments(document.querySelector('#recent'), '/comment?type=recent&count=5');
