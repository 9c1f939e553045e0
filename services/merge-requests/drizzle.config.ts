import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: ["./src/db/schema.ts", "./src/db/notes.schema.ts", "./src/db/approvals.schema.ts"],
  out: "./drizzle",
  schemaFilter: ["merge_requests"],
});
