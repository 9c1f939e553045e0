import { gEnum, gFile, gId, gString } from "@collab/core";
import { z } from "zod";

/**
 * GitLab's job artifact file types and formats (Ci::JobArtifact.file_types / file_formats), and
 * the format each type must have (TYPE_AND_FORMAT_PAIRS).
 */
export const ARTIFACT_TYPE_FORMATS = {
  archive: "zip",
  metadata: "gzip",
  trace: "raw",
  junit: "gzip",
  sast: "raw",
  dependency_scanning: "raw",
  container_scanning: "raw",
  dast: "raw",
  codequality: "raw",
  license_scanning: "raw",
  performance: "raw",
  metrics: "gzip",
  metrics_referee: "gzip",
  network_referee: "gzip",
  lsif: "zip",
  dotenv: "gzip",
  cobertura: "gzip",
  terraform: "raw",
  accessibility: "raw",
  cluster_applications: "gzip",
  secret_detection: "raw",
  requirements: "raw",
  coverage_fuzzing: "raw",
  browser_performance: "raw",
  load_performance: "raw",
  api_fuzzing: "raw",
  cluster_image_scanning: "raw",
  cyclonedx: "gzip",
  requirements_v2: "raw",
  annotations: "gzip",
  repository_xray: "gzip",
  jacoco: "gzip",
} as const;

export type ArtifactType = keyof typeof ARTIFACT_TYPE_FORMATS;
export const ARTIFACT_TYPES = Object.keys(ARTIFACT_TYPE_FORMATS) as [ArtifactType, ...ArtifactType[]];
export const ARTIFACT_FORMATS = ["raw", "zip", "gzip"] as const;
export type ArtifactFormat = (typeof ARTIFACT_FORMATS)[number];

/** POST /jobs/:id/artifacts, in GitLab's declaration order (the metadata file is not kept here). */
export const UploadArtifactParams = z.object({
  id: gId(),
  file: gFile(),
  expire_in: gString().optional(),
  artifact_type: gEnum(ARTIFACT_TYPES).default("archive"),
  artifact_format: gEnum(ARTIFACT_FORMATS).default("zip"),
});
