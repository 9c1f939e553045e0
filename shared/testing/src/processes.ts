/** Whether a process runs (distributed tests check that faults leave every service process up). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
