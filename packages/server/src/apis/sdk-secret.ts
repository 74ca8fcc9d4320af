import { randomBase62 } from '../platform/ids.js';

// Existing SDKs refuse secrets that do not start with mas_ (sdk-wire-protocol.md section 1).
export const SDK_SECRET_PREFIX = 'mas_';

/** A new SDK secret: the prefix and 43 base-62 characters (256 bits). */
export function newSdkSecret(): string {
  return SDK_SECRET_PREFIX + randomBase62(43);
}
