import { auditEventView } from "../../audit/types.js";
import { connectionType } from "./connection.js";

export const AuditEventConnection = connectionType(auditEventView);
