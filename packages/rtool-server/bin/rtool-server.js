#!/usr/bin/env bun
// `bunx rtool-server`: the whole CLI lives in @rtool/server; this package only gives it the
// unscoped name the README uses. Bun runs @rtool/server's TypeScript sources directly.
import { runCli } from "@rtool/server/cli";

process.exit(await runCli(process.argv.slice(2)));
