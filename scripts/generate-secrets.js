#!/usr/bin/env node
// Fresh secrets for a distributed Collab, as KEY=value lines (a compose .env, or a Kubernetes
// Secret with `kubectl create secret generic collab-secrets --from-env-file=…`):
//   npm run --silent secrets >> .env
// SECRETS_KEY (stored credentials, README "Secrets at rest"), one NATS password per service
// (deploy/nats/nats-server.conf's authorization), and the bus's Ed25519 keys (README "Security of
// the bus"): the service key every process signs with, the gateways' key and its public half.
"use strict";
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");

const services = fs
  .readdirSync(path.join(__dirname, "..", "services"))
  .filter((dir) => fs.existsSync(path.join(__dirname, "..", "services", dir, "package.json")))
  .sort();
const ed25519 = () => {
  const { privateKey, publicKey } = crypto.generateKeyPairSync("ed25519");
  return { private: privateKey.export({ type: "pkcs8", format: "der" }).toString("base64"), public: publicKey.export({ type: "spki", format: "der" }).toString("base64") };
};
const service = ed25519();
const caller = ed25519();
const lines = [
  `SECRETS_KEY=${crypto.randomBytes(32).toString("base64")}`,
  ...services.map((s) => `NATS_PASSWORD_${s.toUpperCase().replace(/-/g, "_")}=${crypto.randomBytes(24).toString("base64url")}`),
  `SERVICE_SIGNING_KEY=${service.private}`,
  `CALLER_SIGNING_KEY=${caller.private}`,
  `CALLER_KEYS=${caller.public}`,
];
process.stdout.write(`${lines.join("\n")}\n`);
