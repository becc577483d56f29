#!/usr/bin/env bun
/** The `rtool-server` executable; see `cli/main.ts` and `rtool-server --help`. */
import { runCli } from "./cli/main";

process.exit(await runCli(process.argv.slice(2)));
