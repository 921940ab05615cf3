// The OpenAPI 3.1 document, generated from the route table and the same zod schemas that validate
// requests (zod 4's native JSON Schema output). Served at /v1/openapi.json.
import { z } from 'zod';
import { Account } from '../../shared/api/accounts';
import { AdSet, Ad, CampaignDetail, CampaignListItem } from '../../shared/api/campaigns';
import { API_VERSIONS, CURRENT_API_VERSION, ErrorBody, Pagination } from '../../shared/api/common';
import {
  DiagnosticCreatedSchema,
  DiagnosticDetailSchema,
  DiagnosticListItemSchema,
} from '../../shared/api/diagnostics';
import { InsightsSummary } from '../../shared/api/insights';
import { ReportCreatedSchema, ReportSchema } from '../../shared/api/reports';
import { API_ERROR_STATUS } from '../../shared/errors';
import type { Route } from './route';

type JsonSchema = Record<string, unknown>;

const NAMED: Array<[string, z.ZodType]> = [
  ['Error', ErrorBody],
  ['Pagination', Pagination],
  ['Account', Account],
  ['CampaignListItem', CampaignListItem],
  ['CampaignDetail', CampaignDetail],
  ['AdSet', AdSet],
  ['Ad', Ad],
  ['DiagnosticListItem', DiagnosticListItemSchema],
  ['DiagnosticDetail', DiagnosticDetailSchema],
  ['DiagnosticCreated', DiagnosticCreatedSchema],
  ['Report', ReportSchema],
  ['ReportCreated', ReportCreatedSchema],
  ['InsightsSummary', InsightsSummary],
];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function clean(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

function inputSchema(schema: z.ZodType): JsonSchema {
  return clean(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
}

function componentSchemas(routes: readonly Route[]): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  const seen = new Set<z.ZodType>();
  const add = (name: string, schema: z.ZodType) => {
    if (seen.has(schema)) return;
    seen.add(schema);
    registry.add(schema, { id: name });
  };
  for (const [name, schema] of NAMED) add(name, schema);
  for (const route of routes) {
    if (route.response.schema && route.response.name) add(route.response.name, route.response.schema);
  }
  const out = z.toJSONSchema(registry, {
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
  }) as { schemas: Record<string, JsonSchema> };
  return Object.fromEntries(Object.entries(out.schemas).map(([name, schema]) => [name, clean(schema)]));
}

function parameters(route: Route): JsonSchema[] {
  const params: JsonSchema[] = [];
  for (const [name, schema] of Object.entries(route.pathParams ?? {})) {
    params.push({ name, in: 'path', required: true, schema: inputSchema(schema) });
  }
  if (route.query instanceof z.ZodObject) {
    for (const [name, field] of Object.entries(route.query.shape as Record<string, z.ZodType>)) {
      const optional = field.safeParse(undefined).success;
      params.push({ name, in: 'query', required: !optional, schema: inputSchema(field) });
    }
  }
  params.push({
    name: 'service-version',
    in: 'header',
    required: false,
    description: `API version; absent means ${CURRENT_API_VERSION}. An unknown value is 400 invalid_request.`,
    schema: { type: 'string', enum: [...API_VERSIONS] },
  });
  return params;
}

function responses(route: Route): JsonSchema {
  const out: JsonSchema = {};
  const success: JsonSchema = { description: route.summary };
  if (route.response.schema && route.response.name) {
    success.content = { 'application/json': { schema: ref(route.response.name) } };
  } else if (route.response.contentTypes) {
    success.content = Object.fromEntries(
      route.response.contentTypes.map((type) => [
        type,
        { schema: type === 'text/event-stream' ? { type: 'string' } : { type: 'string', format: 'binary' } },
      ]),
    );
  }
  out[String(route.response.status)] = success;
  const byStatus = new Map<number, string[]>();
  for (const type of route.errors) {
    const status = API_ERROR_STATUS[type];
    byStatus.set(status, [...(byStatus.get(status) ?? []), type]);
  }
  for (const [status, types] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = {
      description: `Error: ${types.join(', ')}`,
      content: { 'application/json': { schema: ref('Error') } },
    };
  }
  return out;
}

export function buildOpenApiDocument(routes: readonly Route[]): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const operation: JsonSchema = {
      operationId: route.operationId,
      summary: route.summary,
      tags: [route.tag],
      parameters: parameters(route),
      responses: responses(route),
    };
    if (route.description) operation.description = route.description;
    if (route.body) {
      operation.requestBody = {
        required: !route.body.safeParse(undefined).success,
        content: { 'application/json': { schema: inputSchema(route.body) } },
      };
    }
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, JsonSchema>)[route.method.toLowerCase()] = operation;
  }
  paths['/v1/openapi.json'] = {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This document (no key needed)',
      tags: ['Meta'],
      security: [],
      responses: {
        '200': {
          description: 'The OpenAPI 3.1 document',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'AdLens local API',
      version: '1.1.0',
      description:
        'The /v1 API of AdLens on 127.0.0.1: ad accounts, campaigns, diagnostics, reports and insights. Every request sends x-api-key; successes carry meta.remaining_requests; errors are {error: {type, message}}.',
    },
    servers: [{ url: '/' }],
    security: [{ apiKey: [] }],
    tags: ['Accounts', 'Campaigns', 'Diagnostics', 'Reports', 'Insights', 'Goals', 'Events', 'Meta'].map(
      (name) => ({
        name,
      }),
    ),
    paths,
    components: {
      schemas: componentSchemas(routes),
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
    },
  };
}
