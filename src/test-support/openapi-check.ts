// Test helper: validates responses against the served OpenAPI document (ajv, JSON Schema 2020-12).
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Doc = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

const DOC_ID = 'https://adlens.local/openapi.json';

export function responseChecker(doc: Doc) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: DOC_ID });
  const templates = Object.keys(doc.paths).map((template) => ({
    template,
    regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));

  /** Throws when the body does not match the documented response of that operation and status. */
  return function check(method: string, path: string, status: number, body: unknown): void {
    const pathname = path.split('?')[0] as string;
    const found = templates.find((t) => t.regex.test(pathname));
    if (!found) throw new Error(`undocumented path ${pathname}`);
    const operation = doc.paths[found.template]?.[method.toLowerCase()];
    if (!operation) throw new Error(`undocumented operation ${method} ${found.template}`);
    if (!operation.responses[String(status)]) {
      throw new Error(
        `undocumented status ${status} for ${method} ${found.template}: ${JSON.stringify(body)}`,
      );
    }
    const pointer = `${DOC_ID}#/paths/${found.template.replaceAll('~', '~0').replaceAll('/', '~1').replaceAll('{', '%7B').replaceAll('}', '%7D')}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
    const validate = ajv.getSchema(pointer);
    if (!validate) throw new Error(`no JSON schema for ${method} ${found.template} ${status}`);
    if (!validate(body)) {
      throw new Error(
        `${method} ${path} ${status} does not match the OpenAPI document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 600)}`,
      );
    }
  };
}
