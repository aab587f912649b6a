// A companion tool's view of the API (issue 38): types generated from the live document by
// openapi-typescript (default settings) into build/schema.d.ts, compiled with tsc strict and
// noUncheckedIndexedAccess, and run against a test server by tests/contract/test_typescript_client.py.
// It drives every operation group — books, validation (issue data narrowed by its code), saved
// lists with If-Match, previews of every family, PDFs as bytes, an event day — with no type
// assertions, no `any` and no non-null assertions; every JSON answer is checked against the
// schema its operation declares (ajv, JSON Schema 2020-12), and the run fails on any violation.
import { readFileSync } from "node:fs";
import createClient from "openapi-fetch";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { components, paths } from "./build/schema.js";

type Schemas = components["schemas"];
type Issue = Schemas["IssueOut"];

const [baseUrl, documentPath] = process.argv.slice(2);
if (baseUrl === undefined || documentPath === undefined) throw new Error("usage: client.js <base url> <openapi.json>");

// --- every JSON answer against its declared schema ------------------------------------------

interface Operation {
  pattern: RegExp;
  method: string;
  responses: Record<string, unknown>;
}

const documentText: unknown = JSON.parse(readFileSync(documentPath, "utf-8"));
const document = objectOf(documentText);
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormatsModule.default(ajv);
const operations: Operation[] = [];
for (const [path, item] of Object.entries(objectOf(document["paths"]))) {
  const pattern = new RegExp("^" + path.replace(/\{[^}]+\}/g, "[^/]+") + "$");
  for (const [method, operation] of Object.entries(objectOf(item))) {
    if (!["get", "put", "post", "delete", "patch"].includes(method)) continue;
    operations.push({ pattern, method: method.toUpperCase(), responses: objectOf(objectOf(operation)["responses"]) });
  }
}
const validators = new Map<string, ValidateFunction | null>();
const problems: string[] = [];
let checked = 0;

function objectOf(value: unknown): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("not an object");
  return Object.fromEntries(Object.entries(value));
}

function validatorFor(method: string, pathname: string, status: number): ValidateFunction | null {
  const operation = operations.find((o) => o.method === method && o.pattern.test(pathname));
  if (operation === undefined) return null;
  const key = `${method} ${operation.pattern.source} ${status}`;
  const known = validators.get(key);
  if (known !== undefined) return known;
  let response = operation.responses[String(status)] ?? operation.responses["default"];
  const reference = objectOf(response)["$ref"];
  if (typeof reference === "string") {
    response = objectOf(objectOf(document["components"])["responses"])[reference.split("/").pop() ?? ""];
  }
  const content = objectOf(response)["content"];
  const json = content === undefined ? undefined : objectOf(content)["application/json"];
  const validate =
    json === undefined ? null : ajv.compile({ ...objectOf(objectOf(json)["schema"]), components: document["components"] });
  validators.set(key, validate);
  return validate;
}

const checkingFetch = async (input: Request): Promise<Response> => {
  const response = await fetch(input);
  if ((response.headers.get("content-type") ?? "").startsWith("application/json")) {
    const url = new URL(input.url);
    const validate = validatorFor(input.method, url.pathname, response.status);
    const where = `${input.method} ${url.pathname} ${response.status}`;
    if (validate === null) problems.push(`${where}: no JSON schema declared`);
    else {
      const body: unknown = await response.clone().json();
      checked += 1;
      if (!validate(body)) problems.push(`${where}: ${ajv.errorsText(validate.errors)}`);
    }
  }
  return response;
};

const api = createClient<paths>({ baseUrl, fetch: checkingFetch });
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

function expect(condition: boolean, what: string): void {
  if (!condition) throw new Error(`expected: ${what}`);
}

// --- books and systems ---------------------------------------------------------------------

const systems = await api.GET("/api/v1/systems");
expect(systems.data !== undefined && systems.data.length >= 5, "five systems");
for (const system of systems.data ?? []) {
  const detail = await api.GET("/api/v1/systems/{system_id}", { params: { path: { system_id: system.id } } });
  expect(detail.data?.id === system.id, `system ${system.id}`);
  const books = await api.GET("/api/v1/books", { params: { query: { system: system.id } } });
  for (const summary of books.data ?? []) {
    const book = await api.GET("/api/v1/books/{book_id}", { params: { path: { book_id: summary.id } } });
    const first = book.data?.units[0];
    expect(first !== undefined && book.data?.unit_count === book.data?.units.length, `book ${summary.id}`);
    for (const section of book.data?.upgrades ?? []) expect(section.pick.min >= 0, "a section's pick");
  }
}

// --- validation: issue data narrowed by its code ---------------------------------------------

const list: Schemas["ArmyList"] = {
  system: "grimdark-future",
  book: "gf-cinder-covenant",
  name: "Ember Host",
  points_limit: 1000,
  units: [
    { key: "a", unit: "cc-ash-wardens", upgrades: [{ section: "cc-rifle-specials", option: "flamer", count: 2 }] },
    { key: "p", unit: "cc-ember-priest", joined_to: "a" },
  ],
};
const legal = await api.POST("/api/v1/lists/validate", { body: list });
expect(legal.data?.valid === true && legal.data.totals.pts === 200, "a legal list of 200 pts");

function figures(issue: Issue): string {
  switch (issue.code) {
    case "upgrade.count":
      return `${issue.data.asked} asked, ${issue.data.allowed} allowed`;
    case "points.over_limit":
      return "allowance" in issue.data ? `${issue.data.over} over the allowance` : `${issue.data.over} over`;
    case "upgrade.replace_exceeds":
      return `${issue.data.gear}: ${issue.data.asked} of ${issue.data.left}`;
    default:
      return "data" in issue ? JSON.stringify(issue.data) : "no figures";
  }
}

const illegal = await api.POST("/api/v1/lists/validate", {
  body: {
    ...list,
    points_limit: 100,
    units: [{ key: "a", unit: "cc-ash-wardens", upgrades: [{ section: "cc-rifle-specials", option: "flamer", count: 3 }] }],
  },
});
const told = (illegal.data?.issues ?? []).map(figures);
expect(told.includes("3 asked, 2 allowed") && told.some((t) => t.endsWith(" over")), `figures by code: ${told.join("; ")}`);

// --- saved lists with If-Match, and PDFs as bytes ---------------------------------------------

const created = await api.POST("/api/v1/lists", { body: list });
if (created.data === undefined) throw new Error("saving a list failed");
const saved = created.data;
const path = { list_id: saved.id };
const renamed = await api.PUT("/api/v1/lists/{list_id}", {
  params: { path, header: { "If-Match": '"v1"' } },
  headers: bearer(saved.edit_token),
  body: { ...list, name: "Ember Host II" },
});
expect(renamed.data?.version === 2 && renamed.data.list.name === "Ember Host II", "a second version");
const stale = await api.PUT("/api/v1/lists/{list_id}", {
  params: { path, header: { "If-Match": '"v1"' } },
  headers: bearer(saved.edit_token),
  body: list,
});
expect(stale.response.status === 412 && stale.error?.code === 412, "a stale If-Match is 412");
const versions = await api.GET("/api/v1/lists/{list_id}/versions", { params: { path } });
expect((versions.data?.versions.length ?? 0) === 2, "two versions");
const pdf = await api.GET("/api/v1/lists/{list_id}/roster.pdf", { params: { path }, parseAs: "arrayBuffer" });
const magic = pdf.data === undefined ? "" : new TextDecoder().decode(pdf.data.slice(0, 5));
expect(magic === "%PDF-", "a PDF roster");
const printed = await api.POST("/api/v1/rosters/pdf", { body: list, parseAs: "arrayBuffer" });
expect((printed.data?.byteLength ?? 0) > 1000, "a PDF from a list");

// --- previews of every family: each answer narrowed on its system ------------------------------

type Preview = Schemas["PreviewOut"];

// What a companion tool shows of a preview: the family's own figures, read with their types
// once `system` says which family answered (no cast: the union narrows on it).
function headline(preview: Preview): string {
  switch (preview.system) {
    case "ancients-hex": {
      const retreat = preview.consequences.retreat.p_retreat;
      const gasp = preview.consequences.last_gasp?.p_attacker_destroyed ?? 0;
      return `hp lost ${preview.expected.hp_lost.toFixed(2)}, retreat ${retreat.toFixed(2)}, last gasp ${gasp.toFixed(2)}`;
    }
    case "armour-hex": {
      const consequences = preview.consequences;
      if ("to_hit" in consequences) return `${consequences.weapon} hits on ${consequences.to_hit.needed}+`;
      return `advantage ${consequences.advantage.p_attacker.toFixed(2)}, pools ${consequences.pools.attacker.dice}`;
    }
    default: {
      const consequences = preview.consequences;
      const kills = preview.expected.models_killed.toFixed(2);
      if ("melee" in consequences) return `${kills} killed, wins ${consequences.melee.p_attacker_wins.toFixed(2)}`;
      return `${kills} killed, morale test ${consequences.morale.p_test.toFixed(2)} (${consequences.morale.state_on_fail})`;
    }
  }
}

const oprSides = {
  attacker: { book: "gf-cinder-covenant", unit: "cc-ash-wardens" },
  defender: { book: "gf-spore-choir", unit: "sc-spore-drones" },
};
const armourSides = {
  attacker: { book: "ah-hammerdeep-holds", unit: "anvil-tank" },
  defender: { book: "ah-sylvan-concord", unit: "starlance-tank" },
};
const previews: [string, Schemas["PreviewRequest"]][] = [
  ["an OPR shooting", { system: "grimdark-future", ...oprSides, situation: { attack: "shooting", range: 12 } }],
  ["an OPR melee", { system: "grimdark-future", ...oprSides, situation: { attack: "melee", charging: true } }],
  [
    "an ancients-hex melee fought back",
    {
      system: "ancients-hex",
      attacker: { book: "ahx-fjordhold", unit: "jarl" },
      defender: { book: "ahx-thalassan-league", unit: "hoplites" },
      situation: { attack: "melee", defender_action: "fight_back" },
    },
  ],
  ["an armour-hex fire", { system: "armour-hex", ...armourSides, situation: { attack: "shooting", range: 4 } }],
  ["an armour-hex assault", { system: "armour-hex", ...armourSides, situation: { attack: "assault" } }],
];
const headlines: string[] = [];
for (const [what, body] of previews) {
  const answer = await api.POST("/api/v1/previews", { body });
  if (answer.data === undefined) throw new Error(`${what}: no answer`);
  expect(answer.data.system === body.system && answer.data.p_destroyed >= 0, what);
  headlines.push(headline(answer.data));
}
expect(headlines.length === 5 && headlines.every((h) => !h.includes("NaN")), `headlines: ${headlines.join("; ")}`);
expect(headlines[3]?.includes(" hits on ") === true && headlines[4]?.startsWith("advantage ") === true, "fire and assault told apart");

// A whole turn and a loadout comparison are the OPR family's alone: their answers are its shape.
const turn = await api.POST("/api/v1/previews/turn", {
  body: { system: "grimdark-future", ...oprSides, situation: { range: 12 } },
});
const shooting = turn.data?.steps.shooting;
expect(turn.data !== undefined && turn.data.consequences.p_charge >= 0 && (shooting?.p_destroyed ?? 0) >= 0, "a turn");
const compared = await api.POST("/api/v1/previews/compare", {
  body: {
    system: "grimdark-future",
    ...oprSides,
    options: [{ upgrades: [] }, { label: "Flamers", upgrades: [{ section: "cc-rifle-specials", option: "flamer", count: 2 }] }],
    situation: { attack: "shooting", range: 6 },
  },
});
expect(compared.data?.situation.attack === "shooting" && compared.data.options.length === 2, "a comparison");

// A system's composition and limits, narrowed on its family.
for (const id of ["grimdark-future", "ancients-hex", "armour-hex"]) {
  const detail = (await api.GET("/api/v1/systems/{system_id}", { params: { path: { system_id: id } } })).data;
  if (detail === undefined) throw new Error(`system ${id}`);
  if (detail.family === "opr") expect(detail.composition.points.default > 0 && detail.limits.force_org_available, id);
  else if (detail.family === "ancients-hex") expect((detail.limits.limits["400"]?.keyword_minimum ?? 0) > 0, id);
  else expect(detail.limits.game_modes.some((mode) => mode.id === detail.composition.default_mode), id);
}

// --- an event day ------------------------------------------------------------------------------

const event = await api.POST("/api/v1/events", {
  body: {
    name: "Contract Open",
    system: "grimdark-future",
    points_limit: 1000,
    books: [{ book: "gf-cinder-covenant" }],
    deadline: "2099-01-01T18:00:00+00:00",
  },
});
if (event.data === undefined) throw new Error("creating an event failed");
const organiser = bearer(event.data.organiser_token);
const eventPath = { event_id: event.data.id };
const players = new Map<string, string>();
for (const player of ["Ann", "Bea", "Cal", "Dee"]) {
  const own = await api.POST("/api/v1/lists", { body: list });
  if (own.data === undefined) throw new Error("saving a player's list failed");
  const submitted = await api.POST("/api/v1/events/{event_id}/submissions", {
    params: { path: eventPath },
    headers: bearer(own.data.edit_token),
    body: { list_id: own.data.id, player },
  });
  const token = submitted.data?.player_token;
  if (typeof token !== "string") throw new Error(`${player}: no player token`);
  players.set(player, token);
}
const report = await api.GET("/api/v1/events/{event_id}/report", { params: { path: eventPath }, headers: organiser });
expect(report.data?.entries.length === 4, "four entries in the report");
const round = await api.POST("/api/v1/events/{event_id}/rounds", {
  params: { path: eventPath },
  headers: organiser,
  body: { seed: 7 },
});
const table = round.data?.pairings[0];
if (table === undefined) throw new Error("round 1 has no table");
// The document declares a pair; openapi-fetch's Readable<> reads tuples as arrays, so both
// places are checked here (the second is null only for a bye).
const [first, second] = table.players;
if (typeof first !== "string" || typeof second !== "string") throw new Error("table 1 is a bye");
const roundPath = { event_id: event.data.id, number: 1 };
const entered = await api.POST("/api/v1/events/{event_id}/rounds/{number}/results", {
  params: { path: roundPath },
  headers: bearer(players.get(first) ?? ""),
  body: { table: table.table, outcome: { [first]: "win", [second]: "loss" }, secondary: { [first]: 2, [second]: 1 } },
});
expect(entered.data?.status === "waiting" && entered.data.recorded === "entry", "an entry waits");
const confirmed = await api.POST("/api/v1/events/{event_id}/rounds/{number}/confirmations", {
  params: { path: roundPath },
  headers: bearer(players.get(second) ?? ""),
  body: { table: table.table },
});
const scores = confirmed.data?.scores;
expect(confirmed.data?.status === "confirmed" && scores?.[first]?.outcome === "win", "a confirmed win");
const standings = await api.GET("/api/v1/events/{event_id}/standings", { params: { path: eventPath } });
const leader = standings.data?.standings[0];
expect(leader !== undefined && leader.player === first && (leader.tiebreakers["secondary"] ?? -1) >= 0, "standings");
await api.POST("/api/v1/events/{event_id}/checkins", { params: { path: eventPath }, headers: organiser, body: { player: first } });
const log = await api.GET("/api/v1/events/{event_id}/log", { params: { path: eventPath }, headers: organiser });
expect(log.data?.results.map((step) => step.kind).join() === "entry,confirmation", "the log's result steps");
// The organiser's actions, each entry's data narrowed on its kind.
const actions = (log.data?.log ?? []).map((entry) => {
  switch (entry.kind) {
    case "checkin":
      return `${entry.data.player} in after round ${entry.data.after_round}`;
    case "settings":
      return `settings: ${Object.keys(entry.data.after).join(", ")}`;
    default:
      return entry.kind;
  }
});
expect(actions.includes(`${first} in after round 1`), `the log's actions: ${actions.join("; ")}`);

console.log(JSON.stringify({ checked, problems }));
if (problems.length > 0 || checked < 40) process.exitCode = 1;
