import { gId, gString, paginationParams } from "@collab/core";
import { z } from "zod";

/** :id of a project or group: numeric id or URL-decoded full path. */
const ref = () => gString().refine((s) => s.length > 0, { error: "is invalid" });

export const ListMovesParams = z.object({ ...paginationParams });
export const ContainerMovesParams = z.object({ id: ref(), ...paginationParams });
export const MoveIdParams = z.object({ repository_storage_move_id: gId() });
export const ContainerMoveParams = z.object({ id: ref(), repository_storage_move_id: gId() });
export const CreateMoveParams = z.object({ id: ref(), destination_storage_name: gString().optional() });
export const BulkMoveParams = z.object({ source_storage_name: gString(), destination_storage_name: gString().optional() });
