// A frontend's use of the types openapi-typescript generates from openapi/openapi.json;
// tests/api/test_openapi_tools.py compiles it with `tsc --strict` beside the generated api.d.ts.
import type { components, paths } from "./api";

type CommandRoute = paths["/v1/tables/{table_id}/commands"]["post"];
type Command = CommandRoute["requestBody"]["content"]["application/json"];
type Answer = CommandRoute["responses"][200]["content"]["application/json"];
type Headers = CommandRoute["parameters"]["header"];
type Problem = components["schemas"]["Problem"];
type TableView = components["schemas"]["TableView"];

const ante: Command = { type: "PlaceAnte", box: 1, ante: 100 };
const exchange: Command = { type: "Exchange", box: 1, cards: ["2c", "7d"] };
const headers: Headers = { "Idempotency-Key": "click-1", "If-Match": "12" };

function version(answer: Answer): number {
  return answer.version;
}

function phase(view: TableView): string | null {
  return view.round?.phase ?? null;
}

function explain(problem: Problem): string {
  return `${problem.status} ${problem.type ?? ""}: ${problem.detail ?? ""}`;
}

// @ts-expect-error an amount is a number of minor units, never a string
const textAnte: Command = { type: "PlaceAnte", box: 1, ante: "100" };
// @ts-expect-error a command's type is one of the commands
const raise: Command = { type: "Raise", box: 1 };
// @ts-expect-error the idempotency key is required
const noKey: Headers = {};

export { ante, exchange, headers, version, phase, explain, textAnte, raise, noKey };
