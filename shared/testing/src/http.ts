/** A thin fetch wrapper for asserting exact statuses, headers and bodies. */
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string | null;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | (string | number)[]>;
  json?: unknown;
  form?: Record<string, string>;
}

export function apiClient(baseUrl: string, defaultToken?: string) {
  async function request<T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = new URL(`/api/v4${path}`, baseUrl);
    for (const [k, v] of Object.entries(opts.query ?? {})) {
      if (Array.isArray(v)) for (const item of v) url.searchParams.append(`${k}[]`, String(item));
      else url.searchParams.set(k, String(v));
    }
    const headers: Record<string, string> = { ...opts.headers };
    const token = opts.token === undefined ? defaultToken : opts.token;
    if (token) headers["PRIVATE-TOKEN"] = token;
    let body: string | undefined;
    if (opts.json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(opts.json);
    } else if (opts.form) {
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(opts.form).toString();
    }
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* plain text answer */
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }
  return {
    get: <T = any>(p: string, o?: RequestOptions) => request<T>("GET", p, o),
    post: <T = any>(p: string, o?: RequestOptions) => request<T>("POST", p, o),
    put: <T = any>(p: string, o?: RequestOptions) => request<T>("PUT", p, o),
    patch: <T = any>(p: string, o?: RequestOptions) => request<T>("PATCH", p, o),
    delete: <T = any>(p: string, o?: RequestOptions) => request<T>("DELETE", p, o),
    head: (p: string, o?: RequestOptions) => request("HEAD", p, o),
    as: (token: string | null) => apiClient(baseUrl, token ?? undefined),
  };
}
export type ApiClient = ReturnType<typeof apiClient>;
