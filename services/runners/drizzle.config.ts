import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: ["./src/db/schema.ts", "./src/db/vulnerabilities.schema.ts"],
  out: "./drizzle",
  schemaFilter: ["runners"],
});
