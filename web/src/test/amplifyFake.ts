/**
 * A stand-in for aws-amplify/api's REST functions in unit tests. Use with
 *   vi.mock('@aws-amplify/core', () => ({ Amplify: { configure: vi.fn() } }));
 *   vi.mock('@aws-amplify/api-rest', async () => (await import('../test/amplifyFake')).amplifyApi);
 * then queue replies with `fake.replies.push(...)` and read `fake.calls`.
 */
export type FakeCall = {
  method: string;
  apiName: string;
  path: string;
  options?: { headers?: Record<string, string>; body?: unknown; queryParams?: Record<string, string> };
};
export type FakeReply = { status: number; body?: unknown } | 'network-error';

type Handler = (c: FakeCall) => FakeReply | Promise<FakeReply>;

export const fake = {
  calls: [] as FakeCall[],
  /** One-shot replies, in call order. */
  replies: [] as Handler[],
  /** Standing replies by 'METHOD /path/' (checked before the queue). */
  routes: new Map<string, Handler>(),
  reset(): void {
    this.calls.length = 0;
    this.replies = [];
    this.routes.clear();
  },
};

function fakeMethod(method: string) {
  return (input: Omit<FakeCall, 'method'>) => {
    const call = { method, ...input };
    fake.calls.push(call);
    const next = fake.routes.get(`${method} ${input.path}`) ?? fake.replies.shift();
    if (!next) throw new Error(`unexpected ${method} ${input.path}`);
    const response = Promise.resolve(next(call)).then((reply) => {
      if (reply === 'network-error') throw Object.assign(new Error('Network error'), { name: 'NetworkError' });
      const { status, body } = reply;
      const text = body === undefined ? '' : JSON.stringify(body);
      if (status < 300) {
        return { statusCode: status, headers: {}, body: { text: async () => text, json: async () => body, blob: async () => (body instanceof Blob ? body : new Blob([text])) } };
      }
      throw Object.assign(new Error('UnknownError'), { name: 'UnknownError', response: { statusCode: status, headers: {}, body: text } });
    });
    return { response, cancel: () => {} };
  };
}

export const amplifyApi = {
  get: fakeMethod('GET'),
  post: fakeMethod('POST'),
  put: fakeMethod('PUT'),
  patch: fakeMethod('PATCH'),
  del: fakeMethod('DELETE'),
};
