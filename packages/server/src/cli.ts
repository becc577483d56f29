#!/usr/bin/env bun
import { VERSION } from "@rtool/core";

const args = process.argv.slice(2);
if (args.includes("--version")) {
  console.log(VERSION);
  process.exit(0);
}
console.log(`rtool-server ${VERSION}\nusage: rtool-server [--model DIR] [--port 8899]`);
