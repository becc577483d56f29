/**
 * Physical CPU cores available to this process. ONNX Runtime runs best with one intra-op thread
 * per physical core; `os.availableParallelism()` counts hyper-threads too.
 */
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";

function parseCpuList(list: string): number[] {
  const cpus: number[] = [];
  for (const part of list.trim().split(",")) {
    if (!part) continue;
    const [from, to] = part.split("-").map(Number);
    for (let c = from; c <= (to ?? from); c++) cpus.push(c);
  }
  return cpus;
}

/**
 * Counts the physical cores among the CPUs this process may run on (Linux: affinity mask and
 * sysfs sibling lists), falling back to `os.availableParallelism()` elsewhere.
 *
 * @example
 * ```ts
 * const threads = physicalCoreCount(); // 2 on a 2-core machine without SMT
 * ```
 */
export function physicalCoreCount(): number {
  const logical = availableParallelism();
  try {
    const status = readFileSync("/proc/self/status", "utf8");
    const allowed = /Cpus_allowed_list:\s*(\S+)/.exec(status)?.[1];
    if (!allowed) return logical;
    const cores = new Set<string>();
    for (const cpu of parseCpuList(allowed)) {
      const siblings = readFileSync(
        `/sys/devices/system/cpu/cpu${cpu}/topology/thread_siblings_list`,
        "utf8",
      );
      cores.add(siblings.trim());
    }
    return Math.max(1, Math.min(cores.size, logical));
  } catch {
    return logical;
  }
}
