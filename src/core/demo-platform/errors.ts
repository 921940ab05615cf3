// The Graph API error envelope and the codes the demo platform answers with
// (research/meta-marketing-api.md §1.6, §5).

export interface GraphErrorBody {
  error: {
    message: string;
    type: string;
    code: number;
    error_subcode?: number;
    is_transient?: boolean;
    error_user_title?: string;
    error_user_msg?: string;
    fbtrace_id: string;
  };
}

export class GraphError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly subcode?: number,
    readonly type: string = 'OAuthException',
    readonly transient?: boolean,
  ) {
    super(message);
  }

  body(traceId: string): GraphErrorBody {
    return {
      error: {
        message: this.message,
        type: this.type,
        code: this.code,
        ...(this.subcode === undefined ? {} : { error_subcode: this.subcode }),
        ...(this.transient === undefined ? {} : { is_transient: this.transient }),
        fbtrace_id: traceId,
      },
    };
  }
}

export function invalidToken(): GraphError {
  return new GraphError(400, 190, 'Invalid OAuth access token - Cannot parse access token', 467);
}

export function expiredToken(expiredAt: Date, now: Date): GraphError {
  const fmt = (d: Date): string => d.toUTCString();
  return new GraphError(
    400,
    190,
    `Error validating access token: Session has expired on ${fmt(expiredAt)}. The current time is ${fmt(now)}.`,
    463,
  );
}

export function missingToken(): GraphError {
  return new GraphError(400, 104, 'An access token is required to request this resource.');
}

export function unknownObject(id: string): GraphError {
  return new GraphError(
    400,
    100,
    `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
    33,
    'GraphMethodException',
  );
}

export function unknownPath(path: string): GraphError {
  return new GraphError(400, 2500, `Unknown path components: ${path}`);
}

export function invalidParameter(message: string, subcode?: number): GraphError {
  return new GraphError(400, 100, `(#100) ${message}`, subcode);
}

const THROTTLE: Record<number, { message: string; subcode?: number }> = {
  4: { message: '(#4) Application request limit reached', subcode: 1504022 },
  17: { message: '(#17) User request limit reached', subcode: 2446079 },
  613: { message: '(#613) Calls to this api have exceeded the rate limit.', subcode: 1487742 },
  80000: {
    message:
      '(#80000) There have been too many calls from this ad-account. Wait a bit and try again. For more info, please refer to https://developers.facebook.com/docs/graph-api/overview/rate-limiting#ads-insights.',
    subcode: 2446079,
  },
  80004: {
    message:
      '(#80004) There have been too many calls to this ad-account. Wait a bit and try again. For more info, please refer to https://developers.facebook.com/docs/graph-api/overview/rate-limiting#ads-management.',
    subcode: 2446079,
  },
};

/** A synchronous insights read above the data-per-call limit (100/1487534, research §3.4). */
export function tooMuchData(): GraphError {
  return new GraphError(
    400,
    100,
    "Please reduce the amount of data you're asking for, then retry your request",
    1487534,
  );
}

export function throttled(code: number): GraphError {
  const spec = THROTTLE[code] ?? { message: `(#${code}) Rate limit reached` };
  return new GraphError(400, code, spec.message, spec.subcode, 'OAuthException', true);
}

export function serverError(code: 1 | 2): GraphError {
  return code === 1
    ? new GraphError(
        500,
        1,
        "Please reduce the amount of data you're asking for, then retry your request",
        99,
        'OAuthException',
        true,
      )
    : new GraphError(
        500,
        2,
        'An unexpected error has occurred. Please retry your request later.',
        undefined,
        'OAuthException',
        true,
      );
}
