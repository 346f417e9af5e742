/** The deliberate contract breaches of the self-check (`--fault=<name>`), by name. */
export const faults: Record<string, string> = {
  field: 'every `mode` field of a 2xx JSON body says "sandbox" instead of "test" (outside its enum)',
  status: 'POST /v1/services answers 200 instead of the documented 201',
};
