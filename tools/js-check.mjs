// Checks of static/js that neither ESLint's recommended rules nor tsc make (make lint-js):
//   - no module is over MAX_LINES lines (all lines counted), so none grows back into a 1,000-line file;
//   - no import cycle: the browser evaluates a module only after what it imports, so in a
//     cycle one of them runs first and sees the other's exports uninitialised;
//   - every exported function (or arrow function) has a JSDoc block with @returns (or @type),
//     and @param when it takes parameters.
// Imports are read from the `import ... from "./x.js"` lines the modules use (no bundler, no
// dynamic imports); type-only import("./x.js") in JSDoc is not a runtime import and is skipped.
import { readdirSync, readFileSync } from "node:fs";
import { join, dirname, resolve, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DIR = join(ROOT, "static", "js");
const MAX_LINES = 400;

const problems = [];
const files = readdirSync(DIR).filter((f) => f.endsWith(".js")).sort();
const imports = new Map();

for (const name of files) {
  const path = join(DIR, name);
  const text = readFileSync(path, "utf8");
  const lines = text.split("\n");
  const count = text.endsWith("\n") ? lines.length - 1 : lines.length;
  if (count > MAX_LINES) problems.push(`static/js/${name}: ${count} lines, over ${MAX_LINES}: split it by job`);

  const targets = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+["']([^"']+)["']/gms)) targets.push(m[1]);
  for (const m of text.matchAll(/^\s*import\s+["']([^"']+)["']/gm)) targets.push(m[1]);
  imports.set(name, targets.filter((t) => t.startsWith(".")).map((t) => relative(DIR, resolve(DIR, t))));

  lines.forEach((line, i) => {
    const fn = /^export\s+(?:async\s+)?function\s*\*?\s*(\w+)\s*\(([^)]*)/.exec(line)
      || /^export\s+const\s+(\w+)\s*=\s*(?:async\s+)?(?:\(([^)]*)\)|(\w+))\s*=>/.exec(line);
    if (!fn) return;
    const params = (fn[2] ?? fn[3] ?? "").trim();
    let j = i - 1;
    while (j >= 0 && lines[j].trim() === "") j--;
    if (j < 0 || !lines[j].trim().endsWith("*/")) {
      problems.push(`static/js/${name}:${i + 1}: exported ${fn[1]} has no JSDoc`);
      return;
    }
    let k = j;
    while (k >= 0 && !lines[k].includes("/**")) k--;
    const doc = lines.slice(Math.max(k, 0), j + 1).join("\n");
    if (!/@returns?\b|@type\b/.test(doc)) problems.push(`static/js/${name}:${i + 1}: exported ${fn[1]}'s JSDoc has no @returns`);
    if (params && !/@type\b/.test(doc) && !/@param\b/.test(doc)) problems.push(`static/js/${name}:${i + 1}: exported ${fn[1]}'s JSDoc has no @param`);
  });
}

// Cycles: a depth-first walk; a module met again while still on the walk's path closes one.
const state = new Map();  // name -> "open" while on the path, "done" after
const path = [];
function visit(name) {
  state.set(name, "open");
  path.push(name);
  for (const next of imports.get(name) || []) {
    if (!imports.has(next)) { problems.push(`static/js/${name}: imports ./${next}, which static/js does not have`); continue; }
    if (state.get(next) === "open") problems.push(`import cycle: ${[...path.slice(path.indexOf(next)), next].join(" -> ")}`);
    else if (!state.has(next)) visit(next);
  }
  path.pop();
  state.set(name, "done");
}
for (const name of files) if (!state.has(name)) visit(name);

if (problems.length) {
  for (const p of problems) console.error(p);
  process.exit(1);
}
console.log(`static/js: ${files.length} modules, none over ${MAX_LINES} lines, no import cycle, every exported function documented`);
