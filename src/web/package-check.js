// The upload form's check of a batch package before it is sent (docs/web.md): the file's
// structure against the package's JSON Schema, in the browser, with a JSON Schema validator
// served from this site. The first 50 problems are listed and the rest counted; sending
// stays possible, since the server validates every package whatever this says.
import { Validator } from "/assets/json-schema/index.js";

const SHOWN = 50;
/** Keywords that only say a part below them failed: the part's own problem is listed instead. */
const BRANCHES = new Set(["properties", "items", "prefixItems", "allOf", "$ref", "false"]);

const form = document.querySelector("form[data-package-check]");
const input = form?.querySelector('input[type="file"]');
const output = document.getElementById("package-check");

const place = (location) => location.replace(/^#\/?/, "").replaceAll("/", ".") || "package";

function say(...lines) {
  output.replaceChildren(
    ...lines.map((line) => {
      const p = document.createElement("p");
      p.textContent = line;
      return p;
    }),
  );
}

function listProblems(name, problems) {
  const heading = document.createElement("p");
  heading.textContent = `${name}: ${problems.length} ${problems.length === 1 ? "problem" : "problems"} before sending.`;
  const list = document.createElement("ul");
  for (const problem of problems.slice(0, SHOWN)) {
    const item = document.createElement("li");
    item.textContent = `${place(problem.instanceLocation)}: ${problem.error}`;
    list.append(item);
  }
  const rest = document.createElement("p");
  rest.textContent = problems.length > SHOWN ? `And ${problems.length - SHOWN} more.` : "";
  output.replaceChildren(heading, list, rest);
}

/** Each problem once: a format error says what its pattern error at the same place says. */
function leaves(errors) {
  const formats = new Set(errors.filter((e) => e.keyword === "format").map((e) => e.instanceLocation));
  return errors.filter(
    (e) => !BRANCHES.has(e.keyword) && !(e.keyword === "pattern" && formats.has(e.instanceLocation)),
  );
}

if (form && input && output) {
  const validator = fetch("/assets/package.schema.json")
    .then((answer) => answer.json())
    .then((schema) => new Validator(schema, "2020-12", false));
  input.addEventListener("change", async () => {
    const file = input.files?.[0];
    if (!file) return say("");
    if (!file.name.toLowerCase().endsWith(".json"))
      return say(`${file.name}: a CSV or XLSX package is checked when it is sent.`);
    let body;
    try {
      body = JSON.parse(await file.text());
    } catch (error) {
      return say(`${file.name} is not JSON: ${error.message}`);
    }
    const { valid, errors } = (await validator).validate(body);
    if (valid) return say(`${file.name}: its structure is as the contract says. Sending it checks the rest.`);
    listProblems(file.name, leaves(errors));
  });
}
