#!/usr/bin/env bash
# The README's curl walk-through, runnable as is against `npm start` (GATEHOUSE=http://localhost:8080).
set -euo pipefail
G=${GATEHOUSE:-http://localhost:8080}
json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=Function("d","return "+process.argv[1])(JSON.parse(s));console.log(typeof v==="object"?JSON.stringify(v):v)})' "$1"; }
post() { if [ -n "${2:-}" ]; then set -- "$1" -H 'content-type: application/json' -d "$2"; fi; curl -sf -b $J/jar -c $J/jar -H 'x-requested-with: curl' -X POST "$G/api$@"; }
get() { curl -sf -b $J/jar -c $J/jar "$G/api$1"; }
cd "$(dirname "$0")/.."   # node resolves otpauth from the repo
J=$(mktemp -d)
EMAIL="owner-$RANDOM@example.com"; TEAMMATE="grace-$RANDOM@example.com"

# 1. Sign up: a code by mail (read from the dev outbox), a ticket, then the account.
post /auth/signup "{\"email\":\"$EMAIL\"}"; echo
sleep 1
CODE=$(curl -s "$G/dev/mail.json" | json "d.mails.find(m=>m.to==='$EMAIL').text.match(/\\d{6}/)[0]")
TICKET=$(post /auth/signup/verify "{\"email\":\"$EMAIL\",\"code\":\"$CODE\"}" | json d.ticket)
WS=$(post /auth/signup/complete "{\"ticket\":\"$TICKET\",\"name\":\"Ada Lovelace\",\"password\":\"correct horse battery\"}" | json d.workspace_id)
echo "workspace $WS"

# 2. Log in again (the cookie jar keeps the session).
post /auth/login "{\"email\":\"$EMAIL\",\"password\":\"correct horse battery\"}"; echo

# 3. Turn on two-factor: the secret goes into an authenticator app; here node computes the code.
SECRET=$(post /me/2fa/setup | json d.secret)
TOTP=$(node -e "import('otpauth').then(({TOTP,Secret})=>console.log(new TOTP({secret:Secret.fromBase32(process.argv[1])}).generate()))" "$SECRET")
post /me/2fa/enable "{\"code\":\"$TOTP\"}" | json d.recovery_codes.length

# 4. Invite a teammate, who accepts with a name and a password.
post "/workspaces/$WS/invites" "{\"email\":\"$TEAMMATE\",\"role\":\"editor\"}"; echo
sleep 1
INVITE=$(curl -s "$G/dev/mail.json" | json "d.mails.find(m=>m.to==='$TEAMMATE').text.match(/invites\\/([A-Za-z0-9_-]+)/)[1]")
get "/invites/$INVITE"; echo
curl -sf -c $J/jar2 -H 'content-type: application/json' -X POST "$G/api/invites/$INVITE/accept" -d '{"name":"Grace Hopper","password":"another long password"}'; echo

# 5. A workspace key for automation, used as Bearer.
KEY=$(post "/workspaces/$WS/keys" '{"name":"ci","role":"admin"}' | json d.key)
curl -sf -H "Authorization: Bearer $KEY" "$G/api/workspaces/$WS/members" | json 'd.members.map(m=>m.email+" "+m.role)'

# 6. Register an API, add a customer with a key, and give it credit.
API=$(curl -sf -H "Authorization: Bearer $KEY" -H 'content-type: application/json' -X POST "$G/api/workspaces/$WS/apis" -d '{"name":"Weather API","preset":"payg"}')
API_ID=$(echo "$API" | json d.api.id); SDK_SECRET=$(echo "$API" | json d.secret)
auth() { curl -sf -H "Authorization: Bearer $KEY" -H 'content-type: application/json' "$@"; }
CUSTOMER=$(auth -X POST "$G/api/apis/$API_ID/customers" -d '{"name":"Acme","email":"dev@acme.example"}' | json d.id)
CUSTOMER_KEY=$(auth -X POST "$G/api/apis/$API_ID/customers/$CUSTOMER/keys" -d '{"name":"production"}' | json d.key)
auth -X POST "$G/api/apis/$API_ID/customers/$CUSTOMER/credit" -d '{"amount_micro":5000000,"note":"Prepaid","ref":"invoice-1"}'; echo

# 7. What an SDK sees: the snapshot, then a usage report (10 billable requests, 2 not found).
SNAP=$(curl -sf -H "Authorization: Bearer $SDK_SECRET" "$G/sdk/v1/snapshot")
KEY_ID=$(echo "$SNAP" | json "d.keys[0].id"); POLICY=$(echo "$SNAP" | json "d.customers[0].usage_policy_id")
HOUR=$(date -u +%Y-%m-%dT%H:00:00Z)
USAGE="{\"items\":[{\"idempotency_key\":\"$(node -p 'crypto.randomUUID()')\",\"api_key_id\":\"$KEY_ID\",\"usage_policy_id\":\"$POLICY\",\"status_code\":200,\"count\":10,\"period_start\":\"$HOUR\"},{\"idempotency_key\":\"$(node -p 'crypto.randomUUID()')\",\"api_key_id\":\"$KEY_ID\",\"usage_policy_id\":\"$POLICY\",\"status_code\":404,\"count\":2,\"period_start\":\"$HOUR\"}]}"
curl -sf -H "Authorization: Bearer $SDK_SECRET" -H 'content-type: application/json' -X POST "$G/sdk/v1/usage" -d "$USAGE"; echo

# 8. Balance: 1,000,000 welcome + 5,000,000 credit - 10 x 1,000 = 5,990,000; 12 requests this month.
auth "$G/api/apis/$API_ID/customers/$CUSTOMER" | json '({balance_micro:d.balance_micro,month_requests:d.month_requests})'
auth "$G/api/apis/$API_ID/ledger?customer_id=$CUSTOMER" | json 'd.entries.map(e=>e.kind+" "+e.amount_micro+" "+e.requests)'
auth "$G/api/apis/$API_ID/stats?days=1" | json '({requests_today:d.requests_today,charged_month_micro:d.charged_month_micro})'

# 9. The same report again changes nothing: every item answers duplicate.
curl -sf -H "Authorization: Bearer $SDK_SECRET" -H 'content-type: application/json' -X POST "$G/sdk/v1/usage" -d "$USAGE"; echo
auth "$G/api/apis/$API_ID/customers/$CUSTOMER" | json d.balance_micro
