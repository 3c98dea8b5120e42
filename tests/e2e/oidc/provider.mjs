// A real OpenID Connect provider on 127.0.0.1 for tests/e2e/test_signin_e2e.py:
// panva's oidc-provider (certified), with its development login form (any login name becomes
// the subject; the password is not checked) and consent granted on first use.
// Environment: OIDC_PORT (listen port), APP_URL (the app's base URL, as in its redirect_uri).
import Provider from "oidc-provider";

const port = Number(process.env.OIDC_PORT || 9000);
const app = process.env.APP_URL || "http://localhost:8501";
const issuer = `http://127.0.0.1:${port}`;

const configuration = {
  clients: [{
    client_id: "encoding-triage",
    client_secret: "encoding-triage-test-secret",
    redirect_uris: [`${app}/oauth2callback`],
    post_logout_redirect_uris: [`${app}/oauth2callback`],
    grant_types: ["authorization_code"],
    response_types: ["code"],
    token_endpoint_auth_method: "client_secret_basic",
  }],
  // Streamlit reads identity from the ID token only: put the e-mail and name there
  claims: { openid: ["sub"], email: ["email", "email_verified"],
            profile: ["name", "preferred_username"] },
  conformIdTokenClaims: false,
  features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
  cookies: { keys: ["encoding-triage-test-cookie-key"] },
  async findAccount(ctx, id) {
    return {
      accountId: id,
      async claims() {
        return { sub: id, email: `${id}@example.com`, email_verified: true,
                 name: id.charAt(0).toUpperCase() + id.slice(1), preferred_username: id };
      },
    };
  },
  // no consent page: a test user grants the app what it asks on first use
  async loadExistingGrant(ctx) {
    const grantId = ctx.oidc.result?.consent?.grantId
      || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
    if (grantId) {
      return ctx.oidc.provider.Grant.find(grantId);
    }
    const grant = new ctx.oidc.provider.Grant({
      clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
    grant.addOIDCScope("openid email profile");
    await grant.save();
    ctx.oidc.session.ensureClientContainer(ctx.oidc.client.clientId);
    ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId, grant.jti);
    return grant;
  },
};

const provider = new Provider(issuer, configuration);
provider.listen(port, "127.0.0.1", () => {
  console.log(`oidc-provider listening on ${issuer}`);
});
