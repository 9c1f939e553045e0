import { gId, gString, paginationParams } from "@collab/core";
import { z } from "zod";

export const ListClientKeysParams = z.object({ id: gString(), ...paginationParams });
export const CreateClientKeyParams = z.object({ id: gString() });
export const DeleteClientKeyParams = z.object({ id: gString(), key_id: gId() });
