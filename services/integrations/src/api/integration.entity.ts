import { COMMENT_ON_EVENT_DEFAULT, eventFlags, kindOf, type IntegrationBasicEntity, type IntegrationEntity } from "@collab/integrations-contract";
import type { IntegrationRow } from "../db/schema";

/** What is shown for one slug at one level: the row whose settings apply, and whether they are an ancestor's. */
export interface Effective {
  /** The project's or group's own row, if any (its id and timestamps are shown when it inherits). */
  own: IntegrationRow | null;
  /** The row whose settings apply: own, or the closest ancestor group's. */
  source: IntegrationRow;
  inherited: boolean;
}

/** GitLab's Entities::IntegrationBasic: the list item. */
export function presentBasic(e: Effective, enterprise: boolean): IntegrationBasicEntity {
  const shown = e.own ?? e.source;
  const events = eventFlags(e.source.events);
  const { vulnerability_events, ...rest } = events;
  return {
    id: shown.id,
    title: kindOf(e.source.slug).title,
    slug: e.source.slug,
    created_at: shown.createdAt.toISOString(),
    updated_at: shown.updatedAt.toISOString(),
    active: e.source.active,
    ...rest,
    comment_on_event_enabled: e.source.events.comment_on_event_enabled ?? COMMENT_ON_EVENT_DEFAULT,
    inherited: e.inherited,
    ...(enterprise ? { vulnerability_events } : {}),
  };
}

/** Entities::Integration: the list item with `properties`, secrets left out. */
export function presentIntegration(e: Effective, enterprise: boolean): IntegrationEntity {
  const kind = kindOf(e.source.slug);
  const properties: IntegrationEntity["properties"] = {};
  // What a set-up stores of a non-secret field: its parsed value (see parseSetup).
  for (const f of kind.fields) if (!f.secret) properties[f.name] = (e.source.properties[f.name] as IntegrationEntity["properties"][string] | undefined) ?? f.default ?? null;
  return { ...presentBasic(e, enterprise), properties };
}
