/**
 * The REST half of the API: bearer token, idempotency keys, problems, polite retries.
 *
 * A command gets a fresh Idempotency-Key when the player acts and keeps it through every
 * retry, so a retry after a lost answer or a 503 is answered from the server's memory and
 * never acts twice. 503 (and 502/504, and a failed connection) is retried after the
 * server's Retry-After, else after a growing, jittered pause; everything else is final.
 */

const RETRYABLE = new Set([502, 503, 504]);
const MAX_ATTEMPTS = 6;
const MAX_PAUSE_MS = 10_000;

/** An RFC 9457 problem the server answered with. */
export class Problem extends Error {
  /**
   * @param {number} status
   * @param {{type?: string, title?: string, detail?: string}} body
   */
  constructor(status, body) {
    super(body.detail || body.title || `HTTP ${status}`);
    this.status = status;
    this.title = body.title || "";
    this.detail = body.detail || "";
    /** The problem's code: the last part of its type (`/problems/insufficient_funds`). */
    this.code = (body.type || "").split("/").pop() || String(status);
  }
}

/** Retry-After as milliseconds (seconds or an HTTP date), or null. */
export function retryAfterMs(header, now = Date.now()) {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The pause before attempt `attempt` (1 = the first retry): 0.5 s doubling, ±25 %. */
export function backoffMs(attempt) {
  const base = Math.min(MAX_PAUSE_MS, 500 * 2 ** (attempt - 1));
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export class Api {
  /**
   * @param {string} token  the session's (or a development) bearer token
   * @param {{onRetry?: (waitMs: number) => void, onRecovered?: () => void}} [hooks]
   */
  constructor(token, hooks = {}) {
    this.token = token;
    this.hooks = hooks;
    /** Milliseconds to add to Date.now() for the server's clock (from the Date header). */
    this.skewMs = 0;
  }

  /** Server time now, as the client best knows it (deadlines are the server's). */
  now() {
    return Date.now() + this.skewMs;
  }

  headers(extra = {}) {
    return { Authorization: `Bearer ${this.token}`, Accept: "application/json", ...extra };
  }

  /**
   * @param {string} method
   * @param {string} path
   * @param {{body?: unknown, headers?: Record<string,string>}} [options]
   * @returns {Promise<any>} the JSON body
   */
  async request(method, path, options = {}) {
    const init = {
      method,
      headers: this.headers(options.body === undefined ? options.headers : { "Content-Type": "application/json", ...options.headers }),
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      cache: /** @type {RequestCache} */ ("no-store"),
    };
    for (let attempt = 1; ; attempt += 1) {
      let response;
      try {
        response = await fetch(path, init);
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS) throw error;
        await this.wait(backoffMs(attempt));
        continue;
      }
      if (RETRYABLE.has(response.status) && attempt < MAX_ATTEMPTS) {
        await this.wait(retryAfterMs(response.headers.get("Retry-After")) ?? backoffMs(attempt));
        continue;
      }
      if (attempt > 1) this.hooks.onRecovered?.();
      this.learnClock(response);
      const text = await response.text();
      const body = text ? JSON.parse(text) : null;
      if (!response.ok) throw new Problem(response.status, body || {});
      return body;
    }
  }

  async wait(ms) {
    const bounded = Math.min(ms, MAX_PAUSE_MS);
    this.hooks.onRetry?.(bounded);
    await pause(bounded);
  }

  /** The server's Date header fixes the clock the countdowns use (to the second). */
  learnClock(response) {
    const date = Date.parse(response.headers.get("Date") || "");
    if (Number.isNaN(date)) return;
    // The header has whole seconds: a skew within that is noise, not a wrong clock.
    const skew = date + 500 - Date.now();
    this.skewMs = Math.abs(skew) > 1500 ? skew : 0;
  }

  get(path) {
    return this.request("GET", path);
  }

  /**
   * Send a player command; its Idempotency-Key is made once, here, and kept on retries.
   * @param {string} tableId
   * @param {{type: string} & Record<string, unknown>} command
   */
  command(tableId, command) {
    return this.request("POST", `/v1/tables/${encodeURIComponent(tableId)}/commands`, {
      body: command,
      headers: { "Idempotency-Key": crypto.randomUUID() },
    });
  }
}
