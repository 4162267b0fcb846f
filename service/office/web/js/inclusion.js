/**
 * A round's inclusion in a signed checkpoint, checked in the browser from the proof the API
 * serves (GET /v1/audit/rounds/{table}/{n}/inclusion) and the checkpoint key's 32 public
 * bytes: every event's hash recomputed from its inputs and linked to the next, the last one
 * as the checkpoint's leaf, the leaf's audit path to the Merkle root, the checkpoint's digest
 * recomputed over that root, and its Ed25519 signature. A second implementation of
 * docs/audit.md ("The event hash", "Checkpoints"), sharing nothing with the server.
 */

import { fromHex, sha256, toHex } from "/play/static/js/fairness.js";

const encoder = new TextEncoder();
const DOMAIN = "russian-poker/chain-checkpoint/v1\u0000";

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function int8(value) {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigInt64(0, BigInt(value));
  return bytes;
}

function uint8(value) {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(value));
  return bytes;
}

function int4(value) {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setInt32(0, value);
  return bytes;
}

function uuidBytes(text) {
  return fromHex(text.replaceAll("-", ""));
}

/** Microseconds since the epoch of an RFC 3339 time with up to six fraction digits. */
export function isoMicros(iso) {
  const found = iso.match(/^(.*?T\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/);
  if (!found) throw new Error(`not a time: ${iso}`);
  const millis = Date.parse(`${found[1]}${found[3]}`);
  return BigInt(millis) * 1000n + BigInt((found[2] ?? "").padEnd(6, "0").slice(0, 6));
}

/** docs/audit.md, "The event hash". */
export async function eventHash(e, prevHash) {
  return sha256(
    concat(
      prevHash,
      encoder.encode(e.stream_id),
      new Uint8Array([0]),
      int8(e.stream_version),
      uuidBytes(e.event_id),
      encoder.encode(e.event_type),
      new Uint8Array([0]),
      int4(e.schema_version),
      await sha256(encoder.encode(e.data)),
      await sha256(encoder.encode(e.metadata)),
      int8(e.recorded_at_us),
    ),
  );
}

const leafHash = (leaf) => sha256(concat(new Uint8Array([0]), leaf));
const nodeHash = (left, right) => sha256(concat(new Uint8Array([1]), left, right));

/** The largest power of two below `size` (RFC 6962's split). */
function split(size) {
  let k = 1;
  while (k * 2 < size) k *= 2;
  return k;
}

/** RFC 6962: the root a leaf at `index` of `size` leaves and its audit path imply. */
export async function rootFromPath(leaf, index, size, path) {
  if (size === 1) return leafHash(leaf);
  const k = split(size);
  const rest = path.slice(0, -1);
  const last = path[path.length - 1];
  if (index < k) return nodeHash(await rootFromPath(leaf, index, k, rest), last);
  return nodeHash(last, await rootFromPath(leaf, index - k, size - k, rest));
}

/** docs/audit.md, "Checkpoints": the digest that is signed. */
export async function checkpointDigest(c, root) {
  return sha256(
    concat(
      encoder.encode(DOMAIN),
      int8(c.seq),
      int8(isoMicros(c.created_at)),
      uint8(c.upto_tx_id),
      int8(c.upto_position),
      fromHex(c.prev_digest),
      int8(c.leaf_count),
      root,
      fromHex(c.key_id),
    ),
  );
}

/**
 * @param {any} proof  the inclusion proof
 * @param {string} publicKeyHex  the checkpoint key's 32 raw bytes, hex
 * @returns {Promise<{ok: boolean, step: string, detail?: string}>}  the first step that failed
 */
export async function verifyInclusion(proof, publicKeyHex) {
  const events = proof.events;
  if (!proof.checkpoint) return { ok: false, step: "uncovered" };
  if (!events.length || events[0].stream_version !== proof.first_version) return { ok: false, step: "events" };
  let previous = fromHex(events[0].prev_hash);
  for (const e of events) {
    if (toHex(previous) !== e.prev_hash) return { ok: false, step: "link", detail: String(e.stream_version) };
    previous = await eventHash(e, previous);
    if (toHex(previous) !== e.hash) return { ok: false, step: "hash", detail: String(e.stream_version) };
  }
  const last = events[events.length - 1];
  if (last.stream_version < proof.last_version) return { ok: false, step: "events" };
  const c = proof.checkpoint;
  const leaf = concat(encoder.encode(last.stream_id), new Uint8Array([0]), int8(last.stream_version), previous);
  const root = await rootFromPath(leaf, proof.leaf_index, c.leaf_count, proof.audit_path.map(fromHex));
  if (toHex(root) !== c.merkle_root) return { ok: false, step: "root" };
  const digest = await checkpointDigest(c, root);
  if (toHex(digest) !== c.digest) return { ok: false, step: "digest" };
  const key = await crypto.subtle.importKey("raw", fromHex(publicKeyHex), { name: "Ed25519" }, false, ["verify"]);
  const signed = await crypto.subtle.verify({ name: "Ed25519" }, key, fromHex(c.signature), digest);
  return signed ? { ok: true, step: "signature" } : { ok: false, step: "signature" };
}
