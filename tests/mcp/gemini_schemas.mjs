// Prints the parameter schemas of Gemini CLI's tools, read from the package's own built
// sources (dist/src/tools/*.js of @google/gemini-cli-core), as {name: {properties, required}}.
// The schemas are object literals in each tool's constructor; they are cut out by brace
// matching and evaluated (they hold literals only; `Type.X` is given as its lower-case name).
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
const Type = new Proxy({}, { get: (_, k) => String(k).toLowerCase() });
const out = {};

function block(text, from) {
  const open = text.indexOf('{', from);
  let depth = 0, quote = null;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(open, i + 1);
  }
  throw new Error('unbalanced braces');
}

for (const file of fs.readdirSync(dir)) {
  if (!file.endsWith('.js') || file.includes('.test.')) continue;
  const text = fs.readFileSync(path.join(dir, file), 'utf8');
  const name = /static Name = '([a-z_]+)'/.exec(text);
  if (!name) continue;
  const at = text.indexOf('properties: {', name.index);
  if (at < 0) continue;
  const properties = Function('Type', `return (${block(text, at)})`)(Type);
  const req = /required: (\[[^\]]*\])/.exec(text.slice(at));
  const required = req ? Function(`return ${req[1]}`)() : [];
  out[name[1]] = { properties, required };
}
console.log(JSON.stringify(out));
