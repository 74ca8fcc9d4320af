export * from './api-key.js';
export { crc32 } from './crc32.js';
export * from './sdk-wire.js';
