import { createHash, randomBytes } from "node:crypto";

/** Tokens are stored as sha256 digests only; the clear token is shown once. */
export const digest = (token: string) => createHash("sha256").update(token).digest("hex");

const random = (n: number) => randomBytes(n).toString("base64url").replace(/[-_]/g, "x").slice(0, n);

/** Authentication token of a runner created by a user (POST /user/runners). */
export const createdRunnerToken = () => `glrt-${random(20)}`;
/** Authentication token of a runner registered with a registration token (legacy flow). */
export const registeredRunnerToken = () => random(20);
/** Registration tokens carry GitLab's prefix. */
export const registrationToken = () => `GR1348941${random(20)}`;
/** CI/CD job token: valid while its job runs (GitLab's `glcbt-` prefix, which registries key on). */
export const jobToken = () => `glcbt-${random(24)}`;
