import { gId, paginationParams } from "@collab/core";
import { z } from "zod";

export const ListDeadLettersParams = z.object({ ...paginationParams });
export const DeadLetterIdParams = z.object({ id: gId() });
