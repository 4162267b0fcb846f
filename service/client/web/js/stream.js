/**
 * The live half of the API: `GET /v1/tables/{id}/stream`, Server-Sent Events.
 *
 * Read with fetch, not EventSource: EventSource cannot send the Authorization header, and a
 * token in the URL would end up in every proxy's access log. Reconnecting is ours to do,
 * then: after a dropped connection or a server restart the stream is opened again with
 * `Last-Event-ID` (the last table version received), and the server sends every state
 * missed, in order — or a `reset` with the current state when it no longer holds them.
 */

const MAX_PAUSE_MS = 10_000;

export class TableStream {
  /**
   * @param {import("./api.js").Api} api
   * @param {string} tableId
   * @param {{onView: (view: any, kind: string) => void, onStatus: (status: string) => void,
   *          onFatal: (error: Error) => void}} handlers
   */
  constructor(api, tableId, handlers) {
    this.api = api;
    this.tableId = tableId;
    this.handlers = handlers;
    /** @type {string|null} the last event id (table version) received */
    this.lastEventId = null;
    this.controller = new AbortController();
    this.failures = 0;
    this.retryMs = 1000;
  }

  start() {
    this.run();
  }

  stop() {
    this.controller.abort();
  }

  async run() {
    const { signal } = this.controller;
    while (!signal.aborted) {
      this.handlers.onStatus(this.lastEventId === null ? "connecting" : "reconnecting");
      try {
        await this.once(signal);
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof StreamRefused) {
          this.handlers.onFatal(error);
          return;
        }
      }
      if (signal.aborted) return;
      this.failures += 1;
      this.handlers.onStatus("reconnecting");
      const pause = Math.min(MAX_PAUSE_MS, this.retryMs * 2 ** Math.min(this.failures - 1, 4));
      await new Promise((resolve) => setTimeout(resolve, pause * (0.75 + Math.random() * 0.5)));
    }
  }

  async once(signal) {
    const headers = this.api.headers({ Accept: "text/event-stream" });
    if (this.lastEventId !== null) headers["Last-Event-ID"] = this.lastEventId;
    const response = await fetch(`/v1/tables/${encodeURIComponent(this.tableId)}/stream`, {
      headers,
      signal,
      cache: "no-store",
    });
    if ([401, 403, 404].includes(response.status)) {
      throw new StreamRefused(response.status);
    }
    if (!response.ok || !response.body) throw new Error(`stream: HTTP ${response.status}`);
    this.api.learnClock(response);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    let event = { type: "", data: [], id: null };
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      // Lines end in CRLF, LF or CR (the SSE format allows all three).
      const lines = buffer.split(/\r\n|\n|\r(?!$)/);
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        if (line === "") {
          this.dispatch(event);
          event = { type: "", data: [], id: null };
        } else if (!line.startsWith(":")) {
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          let text = colon < 0 ? "" : line.slice(colon + 1);
          if (text.startsWith(" ")) text = text.slice(1);
          if (field === "data") event.data.push(text);
          else if (field === "event") event.type = text;
          else if (field === "id" && !text.includes("\0")) event.id = text;
          else if (field === "retry" && /^\d+$/.test(text)) this.retryMs = Number(text);
        }
      }
    }
  }

  dispatch(event) {
    if (event.id !== null) this.lastEventId = event.id;
    if (!event.data.length) return;
    const kind = event.type || "message";
    if (kind !== "table" && kind !== "reset") return;
    this.failures = 0;
    this.handlers.onStatus("live");
    this.handlers.onView(JSON.parse(event.data.join("\n")), kind);
  }
}

export class StreamRefused extends Error {
  constructor(status) {
    super(`the stream was refused: HTTP ${status}`);
    this.status = status;
  }
}
