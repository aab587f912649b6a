// Checks API answers against the OpenAPI document that declares them, with ajv (JSON Schema
// 2020-12, additionalProperties as declared). One process serves a whole pytest session
// (tests/answer_schemas.py): it reads one JSON request per line on stdin and writes one JSON
// line back.
//   {"document": "<key>", "spec": {...}}            -> {"ok": true}
//   {"document": "<key>", "path": "/api/v1/lists/{list_id}", "method": "get",
//    "status": 200, "body": ...}                    -> {"errors": ["/totals/pts: must be integer", ...]}
// An answer whose status the operation does not list is checked against its `default`.
import readline from "node:readline";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const documents = new Map(); // key -> {spec, ajv, validators}

function responseSchema(spec, path, method, status) {
  const operation = spec.paths?.[path]?.[method];
  if (!operation) return undefined;
  let response = operation.responses[String(status)] ?? operation.responses[`${String(status)[0]}XX`] ?? operation.responses.default;
  if (response?.$ref) response = response.$ref.split("/").slice(1).reduce((node, key) => node[key], spec);
  return response?.content?.["application/json"]?.schema;
}

function validator(entry, path, method, status) {
  const key = `${method} ${path} ${status}`;
  if (!entry.validators.has(key)) {
    const schema = responseSchema(entry.spec, path, method, status);
    entry.validators.set(key, schema === undefined ? null : entry.ajv.compile({ ...schema, components: entry.spec.components }));
  }
  return entry.validators.get(key);
}

function answer(request) {
  if (request.spec) {
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(ajv);
    documents.set(request.document, { spec: request.spec, ajv, validators: new Map() });
    return { ok: true };
  }
  const entry = documents.get(request.document);
  if (!entry) return { errors: [`document ${request.document} was never sent`] };
  const validate = validator(entry, request.path, request.method, request.status);
  if (validate === null) return { errors: [`no JSON schema is declared for ${request.method.toUpperCase()} ${request.path} ${request.status}`] };
  if (validate(request.body)) return { errors: [] };
  return { errors: validate.errors.map((e) => `${e.instancePath || "(answer)"}: ${e.message} (${e.schemaPath}${e.params ? " " + JSON.stringify(e.params) : ""})`) };
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  let reply;
  try {
    reply = answer(JSON.parse(line));
  } catch (error) {
    reply = { errors: [`checker failed: ${error.stack ?? error}`] };
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
});
