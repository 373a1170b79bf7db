import { GraphQLJSONObject } from "graphql-scalars";
import { Field, ID, ObjectType, registerEnumType } from "type-graphql";
import { AUDIT_TARGET_TYPES, OPERATOR_ACTIONS, OPERATOR_CHANNELS } from "../../audit/types.js";
import { Connection } from "./connection.js";
import { enumOf } from "./enums.js";

const OperatorChannelEnum = enumOf(OPERATOR_CHANNELS);
registerEnumType(OperatorChannelEnum, {
  name: "OperatorChannel",
  description: "How the operator made a change.",
  valuesConfig: {
    REST: { description: "The REST operator surface (/v1/admin)." },
    GRAPHQL: { description: "An operator GraphQL operation." },
    CLI: { description: "The operator CLI (npm run -s admin)." },
  },
});

@ObjectType({
  description:
    "Who made an operator change. Every operator shares the operator token, so over HTTP the request tells changes apart.",
})
class AuditActor {
  @Field(() => OperatorChannelEnum, { description: "How the change was made." })
  channel!: string;

  @Field(() => String, { nullable: true, description: "REST and GraphQL: the request's X-Request-ID." })
  requestId!: string | null;

  @Field(() => String, { nullable: true, description: "REST and GraphQL: the client address the request came from." })
  clientAddress!: string | null;

  @Field(() => String, { nullable: true, description: "CLI: the OS account that ran the command." })
  osUser!: string | null;
}

@ObjectType({ description: "One change the operator made, recorded in the change's own transaction." })
class AuditEvent {
  @Field(() => ID, { description: "The event's id (UUID)." })
  id!: string;

  @Field({ description: "When the change was made." })
  at!: Date;

  @Field(() => AuditActor, { description: "Who made it." })
  actor!: AuditActor;

  @Field({ description: `What was done: ${OPERATOR_ACTIONS.join(", ")}.` })
  action!: string;

  @Field({ description: `What kind of record changed: ${AUDIT_TARGET_TYPES.join(", ")}.` })
  targetType!: string;

  @Field(() => ID, { description: "The changed record's id (a manager's or pricing assignment's is the profile id)." })
  targetId!: string;

  @Field(() => GraphQLJSONObject, {
    description: "The ids and settings the change set; never secrets or personal data.",
  })
  details!: Record<string, unknown>;
}

export const AuditEventConnection = Connection(AuditEvent, "AuditEvent");
