/**
 * One runtime's run of sdk-overhead.ts, in a process of its own so that nothing else has warmed or
 * cluttered its JIT and heap: measures against SDK_OVERHEAD_ENDPOINT with SDK_OVERHEAD_SETTINGS (JSON) and
 * sends the result to the parent over IPC.
 */
import { measureSdkOverhead, type SdkOverheadSettings } from './sdk-overhead.js';

const endpoint = process.env.SDK_OVERHEAD_ENDPOINT;
const settings = process.env.SDK_OVERHEAD_SETTINGS;
if (!endpoint || !settings || !process.send) {
  throw new Error('run by sdk-overhead.ts: SDK_OVERHEAD_ENDPOINT, SDK_OVERHEAD_SETTINGS and an IPC channel');
}
const result = await measureSdkOverhead(endpoint, JSON.parse(settings) as SdkOverheadSettings);
process.send(result, () => process.disconnect());
