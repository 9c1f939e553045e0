import type { ServiceSchema } from "moleculer";
import { issuesService } from "./issues.service";

export { ISSUE_EVENTS } from "./issues.actions";
export { NOTE_EVENTS } from "./notes.actions";
export const schemas: ServiceSchema[] = [issuesService];
