/**
 * JSON text exactly as Python's `json.dumps(value, ensure_ascii=False)` writes it with its
 * default separators (`", "` between items, `": "` after keys).
 *
 * The reference server renders each tool with that call, and the models were trained on
 * those bytes, so rtool must reproduce them rather than `JSON.stringify`'s compact form.
 * String escaping already agrees between the two (both escape `"`, `\\`, `\b\f\n\r\t` and
 * other control characters as lowercase `\u00xx`, and leave non-ASCII text raw); numbers
 * differ and are written here the way Python's `repr(float)` / `str(int)` would.
 *
 * Known limits, inherent to parsing JSON in JavaScript: `1.0` and `1` are the same JS
 * number and are both written `1` (Python keeps `1.0`), integers of 1e16 and above are
 * written as Python writes floats (`1e+16`), and object keys that look like
 * array indices (`"0"`, `"12"`) come first in JS objects whatever their order in the source.
 */
export function toPythonJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return pythonNumber(value);
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return `[${value.map(toPythonJson).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${toPythonJson(v)}`).join(", ")}}`;
  }
  throw new TypeError(`cannot render a ${typeof value} as JSON`);
}

/** Python's spelling of a number that came from JSON: integers in full, floats as `repr`. */
function pythonNumber(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (!Number.isFinite(n)) return n > 0 ? "Infinity" : "-Infinity";
  // Beyond 2^53 a JS number no longer knows whether the JSON said `1e21` or 1000...0;
  // Python's float spelling is the likelier one there (an int that large lost digits anyway).
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return BigInt(n).toString();
  // JS and Python both print the shortest round-tripping digits; only the layout differs:
  // Python uses positional notation for exponents -4..15 and `1e-05` style otherwise.
  const [mantissa, exponentText] = n.toExponential().split("e") as [string, string];
  const exponent = Number(exponentText);
  if (exponent >= -4 && exponent < 16) return positional(n, mantissa, exponent);
  // Python writes an integral float mantissa without ".0" in exponent form too (`1e+16`).
  const sign = exponent < 0 ? "-" : "+";
  const digits = String(Math.abs(exponent)).padStart(2, "0");
  return `${mantissa}e${sign}${digits}`;
}

function positional(n: number, mantissa: string, exponent: number): string {
  const negative = n < 0;
  const digits = mantissa.replace("-", "").replace(".", "");
  let text: string;
  if (exponent < 0) {
    text = `0.${"0".repeat(-exponent - 1)}${digits}`;
  } else if (digits.length > exponent + 1) {
    text = `${digits.slice(0, exponent + 1)}.${digits.slice(exponent + 1)}`;
  } else {
    text = `${digits}${"0".repeat(exponent + 1 - digits.length)}.0`;
  }
  return negative ? `-${text}` : text;
}
