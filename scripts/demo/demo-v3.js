// The v3 page: the ES module build of @waline/client 3.x, from node_modules through /vendor/waline-v3/.
import { init, version } from '/vendor/waline-v3/waline.js';
import { showRecentComments, widgetOptions } from './demo.js';

// No RSS links: Marginalia has no feed route yet.
init(widgetOptions({ noRss: true }));
document.querySelector('#client-version').textContent = version;
void showRecentComments(document.querySelector('#recent'), '/api/comment?type=recent&count=5');
