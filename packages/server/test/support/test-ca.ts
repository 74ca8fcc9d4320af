// A certificate authority made for the test run, and https servers with certificates it signs, so
// tests can serve client metadata documents over real TLS (spec 4.3: metadata document URLs are
// https). The app trusts this authority only through AppDeps.outboundTestCa, which only the test
// harness sets. Certificates are written here in DER by hand (RFC 5280 4.1, X.690), ECDSA P-256
// with SHA-256 (RFC 5758 3.2), so no package is needed for them.
import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';

// ---- DER (X.690 8 and 10): tag, length, contents.

function der(tag: number, ...contents: Buffer[]): Buffer {
  const body = Buffer.concat(contents);
  const length = body.length;
  let head: Buffer;
  if (length < 0x80) head = Buffer.from([tag, length]);
  else if (length < 0x100) head = Buffer.from([tag, 0x81, length]);
  else head = Buffer.from([tag, 0x82, length >> 8, length & 0xff]);
  return Buffer.concat([head, body]);
}

const sequence = (...items: Buffer[]) => der(0x30, ...items);
const set = (...items: Buffer[]) => der(0x31, ...items);
const octets = (value: Buffer) => der(0x04, value);
const utf8 = (value: string) => der(0x0c, Buffer.from(value, 'utf8'));
const bool = (value: boolean) => der(0x01, Buffer.from([value ? 0xff : 0x00]));
const explicit = (n: number, value: Buffer) => der(0xa0 + n, value);

function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  const bytes = [40 * arcs[0]! + arcs[1]!];
  for (const arc of arcs.slice(2)) {
    const chunk = [arc & 0x7f];
    for (let rest = arc >> 7; rest > 0; rest >>= 7) chunk.unshift((rest & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return der(0x06, Buffer.from(bytes));
}

/** A non-negative INTEGER: a leading zero keeps the high bit from reading as a sign. */
function positiveInteger(value: Buffer): Buffer {
  let start = 0;
  while (start < value.length - 1 && value[start] === 0) start++;
  const trimmed = value.subarray(start);
  return der(0x02, trimmed[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

/** A BIT STRING whose last byte leaves `unusedBits` unused. */
const bits = (value: Buffer, unusedBits = 0) => der(0x03, Buffer.from([unusedBits]), value);

/** GeneralizedTime (RFC 5280 4.1.2.5.2), in whole seconds. */
function generalizedTime(at: Date): Buffer {
  return der(0x18, Buffer.from(at.toISOString().replace(/[-:T]/g, '').replace(/\.\d{3}Z$/, 'Z'), 'ascii'));
}

// ---- X.509 (RFC 5280 4.1).

const ECDSA_WITH_SHA256 = sequence(oid('1.2.840.10045.4.3.2'));
const commonName = (name: string) => sequence(set(sequence(oid('2.5.4.3'), utf8(name))));
const extension = (id: string, critical: boolean, value: Buffer) => sequence(oid(id), ...(critical ? [bool(true)] : []), octets(value));

interface Issuer {
  name: string;
  key: KeyObject;
}

function certificate(subject: string, publicKey: KeyObject, issuer: Issuer, extensions: Buffer[]): Buffer {
  const now = Date.now();
  const tbs = sequence(
    explicit(0, der(0x02, Buffer.from([2]))), // v3
    positiveInteger(randomBytes(12)),
    ECDSA_WITH_SHA256,
    commonName(issuer.name),
    sequence(generalizedTime(new Date(now - 86_400_000)), generalizedTime(new Date(now + 7 * 86_400_000))),
    commonName(subject),
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, sequence(...extensions)),
  );
  // ECDSA signatures come DER-encoded (Ecdsa-Sig-Value), as X.509 wants them.
  return sequence(tbs, ECDSA_WITH_SHA256, bits(sign('sha256', tbs, issuer.key)));
}

const pem = (derBytes: Buffer) => `-----BEGIN CERTIFICATE-----\n${derBytes.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n?$/, '\n')}-----END CERTIFICATE-----\n`;

export interface TestCa {
  /** The authority's certificate, PEM: what the app is told to trust. */
  certPem: string;
  /** A server certificate and key for these names (DNS names and IPv4 addresses). */
  issue(names: string[]): { certPem: string; keyPem: string };
}

function makeCa(): TestCa {
  const ca = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const issuer = { name: 'Gatehouse test CA', key: ca.privateKey };
  const caCert = certificate(issuer.name, ca.publicKey, issuer, [
    extension('2.5.29.19', true, sequence(bool(true))), // basicConstraints: a CA
    extension('2.5.29.15', true, bits(Buffer.from([0x06]), 1)), // keyUsage: keyCertSign, cRLSign
  ]);
  return {
    certPem: pem(caCert),
    issue(names) {
      const leaf = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const altNames = names.map((name) => (/^\d+\.\d+\.\d+\.\d+$/.test(name) ? der(0x87, Buffer.from(name.split('.').map(Number))) : der(0x82, Buffer.from(name, 'ascii'))));
      const cert = certificate(names[0]!, leaf.publicKey, issuer, [
        extension('2.5.29.19', true, sequence()), // basicConstraints: not a CA
        extension('2.5.29.15', true, bits(Buffer.from([0x80]), 7)), // keyUsage: digitalSignature
        extension('2.5.29.37', false, sequence(oid('1.3.6.1.5.5.7.3.1'))), // extKeyUsage: serverAuth
        extension('2.5.29.17', false, sequence(...altNames)), // subjectAltName
      ]);
      return { certPem: pem(cert), keyPem: leaf.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string };
    },
  };
}

let shared: TestCa | undefined;

/** The run's one test authority, made on first use. */
export function testCa(): TestCa {
  shared ??= makeCa();
  return shared;
}

export interface TestHttpsServer {
  /** https://127.0.0.1:<port> */
  origin: string;
  server: Server;
  close(): Promise<void>;
}

/** An https server on loopback with a certificate of the test authority for 127.0.0.1 and localhost. */
export async function startHttpsServer(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<TestHttpsServer> {
  const { certPem, keyPem } = testCa().issue(['127.0.0.1', 'localhost']);
  const server = createServer({ cert: certPem, key: keyPem }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    server,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
