// The issue's second generator (issue 38): @hey-api/openapi-ts turns the live document into
// types and an SDK (build/hey/), compiled with the same strict tsconfig as client.ts
// (tsconfig.hey.json extends it), and this program drives them against the test server with
// no type assertions, no `any` and no non-null assertions: previews of every family narrowed
// on `system`, a system narrowed on `family`, and issue data narrowed by its code. Every JSON
// answer is also checked by ajv in client.ts's run; here the SDK's own types are the point.
import { client } from "./build/hey/client.gen.js";
import { getSystem, previewAttack, validateList } from "./build/hey/sdk.gen.js";
import type { IssueOut, PreviewOut, PreviewRequest } from "./build/hey/types.gen.js";

const [baseUrl] = process.argv.slice(2);
if (baseUrl === undefined) throw new Error("usage: hey_client.js <base url>");
client.setConfig({ baseUrl });

function expect(condition: boolean, what: string): void {
  if (!condition) throw new Error(`expected: ${what}`);
}

function headline(preview: PreviewOut): string {
  switch (preview.system) {
    case "ancients-hex":
      return `retreat ${preview.consequences.retreat.p_retreat.toFixed(2)}`;
    case "armour-hex":
      return "to_hit" in preview.consequences
        ? `hits on ${preview.consequences.to_hit.needed}+`
        : `advantage ${preview.consequences.advantage.p_attacker.toFixed(2)}`;
    default:
      return "melee" in preview.consequences
        ? `wins ${preview.consequences.melee.p_attacker_wins.toFixed(2)}`
        : `morale test ${preview.consequences.morale.p_test.toFixed(2)}`;
  }
}

const bodies: PreviewRequest[] = [
  {
    system: "grimdark-future",
    attacker: { book: "gf-cinder-covenant", unit: "cc-ash-wardens" },
    defender: { book: "gf-spore-choir", unit: "sc-spore-drones" },
    situation: { attack: "shooting", range: 12 },
  },
  {
    system: "ancients-hex",
    attacker: { book: "ahx-fjordhold", unit: "jarl" },
    defender: { book: "ahx-thalassan-league", unit: "hoplites" },
    situation: { attack: "melee" },
  },
  {
    system: "armour-hex",
    attacker: { book: "ah-hammerdeep-holds", unit: "anvil-tank" },
    defender: { book: "ah-sylvan-concord", unit: "starlance-tank" },
    situation: { attack: "assault" },
  },
];
const headlines: string[] = [];
for (const body of bodies) {
  const { data } = await previewAttack({ body });
  if (data === undefined) throw new Error(`no preview for ${body.system}`);
  headlines.push(headline(data));
}
expect(headlines[0]?.startsWith("morale test") === true, headlines.join("; "));
expect(headlines[1]?.startsWith("retreat") === true && headlines[2]?.startsWith("advantage") === true, headlines.join("; "));

const { data: armour } = await getSystem({ path: { system_id: "armour-hex" } });
expect(armour?.family === "armour-hex" && armour.limits.game_modes.length > 0, "armour-hex's game modes");

function figures(issue: IssueOut): string {
  switch (issue.code) {
    case "upgrade.count":
      return `${issue.data.asked} asked, ${issue.data.allowed} allowed`;
    default:
      return "data" in issue ? "figures" : "none";
  }
}
const { data: report } = await validateList({
  body: {
    system: "grimdark-future",
    book: "gf-cinder-covenant",
    points_limit: 1000,
    units: [{ key: "a", unit: "cc-ash-wardens", upgrades: [{ section: "cc-rifle-specials", option: "flamer", count: 3 }] }],
  },
});
expect((report?.issues ?? []).map(figures).includes("3 asked, 2 allowed"), "issue data by code");
console.log(JSON.stringify({ headlines }));
