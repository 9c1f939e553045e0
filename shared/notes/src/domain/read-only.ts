export { assertWritable } from "@collab/core";
