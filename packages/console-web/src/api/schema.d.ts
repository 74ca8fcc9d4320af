// Generated from the console API's /api/openapi.json by `npm run generate-client -w packages/console-web`.
// Do not edit: the drift test (packages/console-web/test/client-drift.test.ts) regenerates it and fails on any difference.
export interface paths {
    "/api/apis/{api}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An API and its settings */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accent_color: string;
                            api_base_url: string;
                            auto_recharge_allowed: boolean;
                            billable_status_codes: number[] | null;
                            /** Format: date-time */
                            created_at: string;
                            docs_url: string;
                            domain: {
                                allowed: boolean;
                                /** Format: date-time */
                                checked_at?: string;
                                cname_target: string;
                                domain?: string;
                                error?: string;
                                status: "none" | "pending" | "verified" | "active" | "failed";
                                txt_name?: string;
                                txt_value?: string;
                            };
                            /** Format: date-time */
                            first_usage_at?: string;
                            id: string;
                            key_header: string;
                            logo_url?: string;
                            low_balance_micro: number;
                            min_topup_cents: number;
                            monthly_quota: number;
                            name: string;
                            payg_enabled: boolean;
                            payments: {
                                account_id?: string;
                                account_name?: string;
                                charges_enabled: boolean;
                                configured: boolean;
                                connected: boolean;
                                /** Format: date-time */
                                connected_at?: string;
                                livemode: boolean;
                            };
                            plan: {
                                code: string;
                                /** @description apps people connect (dynamic registration, client ID metadata documents) may be turned on */
                                connected_apps: boolean;
                                custom_domain: boolean;
                                /** @description people may make their own API keys (spec 5.6) when the owner turns keys on */
                                end_user_keys: boolean;
                                max_customers: number;
                                monthly_requests: number;
                                name: string;
                                price_monthly_cents: number;
                                purchasable: boolean;
                                remove_branding: boolean;
                                teams: boolean;
                            };
                            /** Format: date-time */
                            plan_grace_until?: string;
                            /** Format: date-time */
                            plan_period_end?: string;
                            plan_status: "active" | "past_due" | "canceled";
                            plans_enabled: boolean;
                            portal_url: string;
                            /** Format: date-time */
                            previous_secret_valid_until?: string;
                            price_per_request_micro: number;
                            privacy_url: string;
                            role: "owner" | "admin" | "editor" | "viewer";
                            rps: number;
                            sdk_agent?: string;
                            /** Format: date-time */
                            sdk_first_seen_at?: string;
                            /** Format: date-time */
                            sdk_last_seen_at?: string;
                            secret_prefix: string;
                            signup_mode: "open" | "approval" | "invite";
                            slug: string;
                            status: "active" | "suspended";
                            support_email: string;
                            suspended_reason?: string;
                            tagline: string;
                            terms_url: string;
                            topup_amounts_cents: number[] | null;
                            website_url: string;
                            welcome_credit_micro: number;
                            workspace_id: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete an API with its customers and ledger (owner)
         * @description Cancels the platform subscription and every customer subscription at the payments provider at once (no further invoice), then deletes. A failure at the provider answers 502 naming the subscription, and nothing is deleted.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Change settings (editor) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        accent_color?: string;
                        api_base_url?: "" | string;
                        auto_recharge_allowed?: boolean;
                        billable_status_codes?: number[];
                        docs_url?: "" | string;
                        key_header?: string;
                        low_balance_micro?: number;
                        min_topup_cents?: number;
                        /** @description 0 removes the quota */
                        monthly_quota?: number;
                        name?: string;
                        payg_enabled?: boolean;
                        plans_enabled?: boolean;
                        price_per_request_micro?: number;
                        privacy_url?: "" | string;
                        /** @description 0 = no limit */
                        rps?: number;
                        /** @description prefix of new customer keys */
                        secret_prefix?: string;
                        signup_mode?: "open" | "approval" | "invite";
                        support_email?: "" | string;
                        tagline?: string;
                        terms_url?: "" | string;
                        topup_amounts_cents?: number[];
                        website_url?: "" | string;
                        welcome_credit_micro?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accent_color: string;
                            api_base_url: string;
                            auto_recharge_allowed: boolean;
                            billable_status_codes: number[] | null;
                            /** Format: date-time */
                            created_at: string;
                            docs_url: string;
                            domain: {
                                allowed: boolean;
                                /** Format: date-time */
                                checked_at?: string;
                                cname_target: string;
                                domain?: string;
                                error?: string;
                                status: "none" | "pending" | "verified" | "active" | "failed";
                                txt_name?: string;
                                txt_value?: string;
                            };
                            /** Format: date-time */
                            first_usage_at?: string;
                            id: string;
                            key_header: string;
                            logo_url?: string;
                            low_balance_micro: number;
                            min_topup_cents: number;
                            monthly_quota: number;
                            name: string;
                            payg_enabled: boolean;
                            payments: {
                                account_id?: string;
                                account_name?: string;
                                charges_enabled: boolean;
                                configured: boolean;
                                connected: boolean;
                                /** Format: date-time */
                                connected_at?: string;
                                livemode: boolean;
                            };
                            plan: {
                                code: string;
                                /** @description apps people connect (dynamic registration, client ID metadata documents) may be turned on */
                                connected_apps: boolean;
                                custom_domain: boolean;
                                /** @description people may make their own API keys (spec 5.6) when the owner turns keys on */
                                end_user_keys: boolean;
                                max_customers: number;
                                monthly_requests: number;
                                name: string;
                                price_monthly_cents: number;
                                purchasable: boolean;
                                remove_branding: boolean;
                                teams: boolean;
                            };
                            /** Format: date-time */
                            plan_grace_until?: string;
                            /** Format: date-time */
                            plan_period_end?: string;
                            plan_status: "active" | "past_due" | "canceled";
                            plans_enabled: boolean;
                            portal_url: string;
                            /** Format: date-time */
                            previous_secret_valid_until?: string;
                            price_per_request_micro: number;
                            privacy_url: string;
                            role: "owner" | "admin" | "editor" | "viewer";
                            rps: number;
                            sdk_agent?: string;
                            /** Format: date-time */
                            sdk_first_seen_at?: string;
                            /** Format: date-time */
                            sdk_last_seen_at?: string;
                            secret_prefix: string;
                            signup_mode: "open" | "approval" | "invite";
                            slug: string;
                            status: "active" | "suspended";
                            support_email: string;
                            suspended_reason?: string;
                            tagline: string;
                            terms_url: string;
                            topup_amounts_cents: number[] | null;
                            website_url: string;
                            welcome_credit_micro: number;
                            workspace_id: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/apis/{api}/connection": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the SDK is connected, and what it has sent */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            customers: number;
                            /** Format: date-time */
                            first_usage_at?: string;
                            payments_ready: boolean;
                            sdk_agent?: string;
                            /** @description an SDK fetched a snapshot in the last 10 minutes */
                            sdk_connected: boolean;
                            /** Format: date-time */
                            sdk_first_seen_at?: string;
                            /** Format: date-time */
                            sdk_last_seen_at?: string;
                            test_requests: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/customers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Customers, newest first, with a cursor */
        get: {
            parameters: {
                query?: {
                    /** @description true lists archived customers only; they are hidden otherwise */
                    archived?: boolean;
                    cursor?: string;
                    limit?: number;
                    q?: string;
                    status?: "active" | "pending" | "suspended";
                };
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            customers: {
                                /**
                                 * Format: date-time
                                 * @description set when the customer was removed but had money, usage or keys on record
                                 */
                                archived_at?: string;
                                balance_micro: number;
                                /** Format: date-time */
                                created_at: string;
                                custom_limits: boolean;
                                email: string;
                                id: string;
                                is_test: boolean;
                                /** Format: date-time */
                                last_used_at?: string;
                                month_requests: number;
                                name: string;
                                plan_id?: string;
                                plan_name?: string;
                                status: "active" | "pending" | "suspended";
                            }[] | null;
                            next_cursor?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Add a customer by hand (editor)
         * @description An address another customer of the API has (not archived; compared case-insensitively) answers 409.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        email: string;
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * Format: date-time
                             * @description set when the customer was removed but had money, usage or keys on record
                             */
                            archived_at?: string;
                            balance_micro: number;
                            /** Format: date-time */
                            created_at: string;
                            custom_limits: boolean;
                            email: string;
                            id: string;
                            is_test: boolean;
                            /** Format: date-time */
                            last_used_at?: string;
                            month_requests: number;
                            name: string;
                            plan_id?: string;
                            plan_name?: string;
                            status: "active" | "pending" | "suspended";
                        } & {
                            auto_recharge: {
                                amount_cents: number;
                                enabled: boolean;
                                /** Format: date-time */
                                failed_at?: string;
                                has_card: boolean;
                                threshold_micro: number;
                            };
                            custom: {
                                monthly_quota: number | null;
                                price_per_request_micro: number | null;
                                rps: number | null;
                            };
                            effective: {
                                billing_model: "payg" | "subscription" | "none";
                                monthly_quota?: number;
                                price_per_request_micro: number;
                                rps: number;
                                source: "custom" | "plan" | "payg";
                            };
                            keys: {
                                /** Format: date-time */
                                created_at: string;
                                id: string;
                                /** Format: date-time */
                                last_used_at?: string;
                                name: string;
                                prefix: string;
                            }[] | null;
                            low_balance_micro?: number;
                            members: {
                                /** Format: date-time */
                                created_at: string;
                                email: string;
                                id: string;
                                /** Format: date-time */
                                last_login_at?: string;
                                name: string;
                                role: string;
                            }[] | null;
                            notes: string;
                            plan_source: "" | "manual" | "provider";
                            provider_customer_id?: string;
                            /** @description true while a subscription is canceled at the end of its period and can still be resumed */
                            subscription_cancel_at_period_end?: boolean;
                            /** Format: date-time */
                            subscription_period_end?: string;
                            subscription_status?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/customers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A customer with effective limits, keys and members */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * Format: date-time
                             * @description set when the customer was removed but had money, usage or keys on record
                             */
                            archived_at?: string;
                            balance_micro: number;
                            /** Format: date-time */
                            created_at: string;
                            custom_limits: boolean;
                            email: string;
                            id: string;
                            is_test: boolean;
                            /** Format: date-time */
                            last_used_at?: string;
                            month_requests: number;
                            name: string;
                            plan_id?: string;
                            plan_name?: string;
                            status: "active" | "pending" | "suspended";
                        } & {
                            auto_recharge: {
                                amount_cents: number;
                                enabled: boolean;
                                /** Format: date-time */
                                failed_at?: string;
                                has_card: boolean;
                                threshold_micro: number;
                            };
                            custom: {
                                monthly_quota: number | null;
                                price_per_request_micro: number | null;
                                rps: number | null;
                            };
                            effective: {
                                billing_model: "payg" | "subscription" | "none";
                                monthly_quota?: number;
                                price_per_request_micro: number;
                                rps: number;
                                source: "custom" | "plan" | "payg";
                            };
                            keys: {
                                /** Format: date-time */
                                created_at: string;
                                id: string;
                                /** Format: date-time */
                                last_used_at?: string;
                                name: string;
                                prefix: string;
                            }[] | null;
                            low_balance_micro?: number;
                            members: {
                                /** Format: date-time */
                                created_at: string;
                                email: string;
                                id: string;
                                /** Format: date-time */
                                last_login_at?: string;
                                name: string;
                                role: string;
                            }[] | null;
                            notes: string;
                            plan_source: "" | "manual" | "provider";
                            provider_customer_id?: string;
                            /** @description true while a subscription is canceled at the end of its period and can still be resumed */
                            subscription_cancel_at_period_end?: boolean;
                            /** Format: date-time */
                            subscription_period_end?: string;
                            subscription_status?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Remove a customer (editor)
         * @description A customer with nothing on record but its creation (no ledger entry beyond its welcome credit, no usage, no key ever issued, nothing with the payments provider) is deleted (204). Any other is archived (200 with the customer, archived_at set): hidden from lists, the portal and the SDK snapshot, its keys revoked, its ledger and usage kept.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * Format: date-time
                             * @description set when the customer was removed but had money, usage or keys on record
                             */
                            archived_at?: string;
                            balance_micro: number;
                            /** Format: date-time */
                            created_at: string;
                            custom_limits: boolean;
                            email: string;
                            id: string;
                            is_test: boolean;
                            /** Format: date-time */
                            last_used_at?: string;
                            month_requests: number;
                            name: string;
                            plan_id?: string;
                            plan_name?: string;
                            status: "active" | "pending" | "suspended";
                        } & {
                            auto_recharge: {
                                amount_cents: number;
                                enabled: boolean;
                                /** Format: date-time */
                                failed_at?: string;
                                has_card: boolean;
                                threshold_micro: number;
                            };
                            custom: {
                                monthly_quota: number | null;
                                price_per_request_micro: number | null;
                                rps: number | null;
                            };
                            effective: {
                                billing_model: "payg" | "subscription" | "none";
                                monthly_quota?: number;
                                price_per_request_micro: number;
                                rps: number;
                                source: "custom" | "plan" | "payg";
                            };
                            keys: {
                                /** Format: date-time */
                                created_at: string;
                                id: string;
                                /** Format: date-time */
                                last_used_at?: string;
                                name: string;
                                prefix: string;
                            }[] | null;
                            low_balance_micro?: number;
                            members: {
                                /** Format: date-time */
                                created_at: string;
                                email: string;
                                id: string;
                                /** Format: date-time */
                                last_login_at?: string;
                                name: string;
                                role: string;
                            }[] | null;
                            notes: string;
                            plan_source: "" | "manual" | "provider";
                            provider_customer_id?: string;
                            /** @description true while a subscription is canceled at the end of its period and can still be resumed */
                            subscription_cancel_at_period_end?: boolean;
                            /** Format: date-time */
                            subscription_period_end?: string;
                            subscription_status?: string;
                        };
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Approve, suspend, reactivate; notes; assign a plan by hand (editor) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        low_balance_micro?: number | null;
                        notes?: string;
                        plan_id?: string | null;
                        status?: "active" | "pending" | "suspended";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * Format: date-time
                             * @description set when the customer was removed but had money, usage or keys on record
                             */
                            archived_at?: string;
                            balance_micro: number;
                            /** Format: date-time */
                            created_at: string;
                            custom_limits: boolean;
                            email: string;
                            id: string;
                            is_test: boolean;
                            /** Format: date-time */
                            last_used_at?: string;
                            month_requests: number;
                            name: string;
                            plan_id?: string;
                            plan_name?: string;
                            status: "active" | "pending" | "suspended";
                        } & {
                            auto_recharge: {
                                amount_cents: number;
                                enabled: boolean;
                                /** Format: date-time */
                                failed_at?: string;
                                has_card: boolean;
                                threshold_micro: number;
                            };
                            custom: {
                                monthly_quota: number | null;
                                price_per_request_micro: number | null;
                                rps: number | null;
                            };
                            effective: {
                                billing_model: "payg" | "subscription" | "none";
                                monthly_quota?: number;
                                price_per_request_micro: number;
                                rps: number;
                                source: "custom" | "plan" | "payg";
                            };
                            keys: {
                                /** Format: date-time */
                                created_at: string;
                                id: string;
                                /** Format: date-time */
                                last_used_at?: string;
                                name: string;
                                prefix: string;
                            }[] | null;
                            low_balance_micro?: number;
                            members: {
                                /** Format: date-time */
                                created_at: string;
                                email: string;
                                id: string;
                                /** Format: date-time */
                                last_login_at?: string;
                                name: string;
                                role: string;
                            }[] | null;
                            notes: string;
                            plan_source: "" | "manual" | "provider";
                            provider_customer_id?: string;
                            /** @description true while a subscription is canceled at the end of its period and can still be resumed */
                            subscription_cancel_at_period_end?: boolean;
                            /** Format: date-time */
                            subscription_period_end?: string;
                            subscription_status?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/apis/{api}/customers/{id}/credit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add or remove credit (editor); idempotent by ref */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description positive adds credit, negative removes it; never 0 */
                        amount_micro: number;
                        note: string;
                        /** @description idempotency reference: a repeated ref is ignored */
                        ref?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description false when the ref was already applied */
                            applied: boolean;
                            balance_micro: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/customers/{id}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Make a key for a customer (editor); shown once */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            id: string;
                            /** Format: date-time */
                            last_used_at?: string;
                            name: string;
                            prefix: string;
                        } & {
                            /** @description shown once */
                            key: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/customers/{id}/keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a customer's key (editor) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                    key_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/customers/{id}/limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set custom limits (editor) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        monthly_quota?: number | null;
                        price_per_request_micro?: number | null;
                        rps?: number | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * Format: date-time
                             * @description set when the customer was removed but had money, usage or keys on record
                             */
                            archived_at?: string;
                            balance_micro: number;
                            /** Format: date-time */
                            created_at: string;
                            custom_limits: boolean;
                            email: string;
                            id: string;
                            is_test: boolean;
                            /** Format: date-time */
                            last_used_at?: string;
                            month_requests: number;
                            name: string;
                            plan_id?: string;
                            plan_name?: string;
                            status: "active" | "pending" | "suspended";
                        } & {
                            auto_recharge: {
                                amount_cents: number;
                                enabled: boolean;
                                /** Format: date-time */
                                failed_at?: string;
                                has_card: boolean;
                                threshold_micro: number;
                            };
                            custom: {
                                monthly_quota: number | null;
                                price_per_request_micro: number | null;
                                rps: number | null;
                            };
                            effective: {
                                billing_model: "payg" | "subscription" | "none";
                                monthly_quota?: number;
                                price_per_request_micro: number;
                                rps: number;
                                source: "custom" | "plan" | "payg";
                            };
                            keys: {
                                /** Format: date-time */
                                created_at: string;
                                id: string;
                                /** Format: date-time */
                                last_used_at?: string;
                                name: string;
                                prefix: string;
                            }[] | null;
                            low_balance_micro?: number;
                            members: {
                                /** Format: date-time */
                                created_at: string;
                                email: string;
                                id: string;
                                /** Format: date-time */
                                last_login_at?: string;
                                name: string;
                                role: string;
                            }[] | null;
                            notes: string;
                            plan_source: "" | "manual" | "provider";
                            provider_customer_id?: string;
                            /** @description true while a subscription is canceled at the end of its period and can still be resumed */
                            subscription_cancel_at_period_end?: boolean;
                            /** Format: date-time */
                            subscription_period_end?: string;
                            subscription_status?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/customers/{id}/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A customer's receipts and paid invoices, newest first, with refunds and disputes */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                };
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            payments: {
                                amount_cents: number;
                                /** Format: date-time */
                                created_at: string;
                                /** @description credit the payment added */
                                credit_micro: number;
                                /** @description credit refunds and an open or lost dispute took back */
                                credit_taken_back_micro: number;
                                description: string;
                                /** @description the provider's object: checkout session (top-up), payment intent (automatic top-up), invoice (plan) */
                                id: string;
                                kind: "topup" | "auto_recharge" | "plan";
                                refunded_cents: number;
                                status: "paid" | "partially_refunded" | "refunded" | "disputed" | "dispute_won" | "dispute_lost";
                                /** @description the provider's receipt or invoice page */
                                url?: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/customers/{id}/subscription/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a customer's subscription at the end of its period or at once (editor) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description false ends it now, with proration as the provider computes it
                         * @default true
                         */
                        at_period_end?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * Format: date-time
                             * @description set when the customer was removed but had money, usage or keys on record
                             */
                            archived_at?: string;
                            balance_micro: number;
                            /** Format: date-time */
                            created_at: string;
                            custom_limits: boolean;
                            email: string;
                            id: string;
                            is_test: boolean;
                            /** Format: date-time */
                            last_used_at?: string;
                            month_requests: number;
                            name: string;
                            plan_id?: string;
                            plan_name?: string;
                            status: "active" | "pending" | "suspended";
                        } & {
                            auto_recharge: {
                                amount_cents: number;
                                enabled: boolean;
                                /** Format: date-time */
                                failed_at?: string;
                                has_card: boolean;
                                threshold_micro: number;
                            };
                            custom: {
                                monthly_quota: number | null;
                                price_per_request_micro: number | null;
                                rps: number | null;
                            };
                            effective: {
                                billing_model: "payg" | "subscription" | "none";
                                monthly_quota?: number;
                                price_per_request_micro: number;
                                rps: number;
                                source: "custom" | "plan" | "payg";
                            };
                            keys: {
                                /** Format: date-time */
                                created_at: string;
                                id: string;
                                /** Format: date-time */
                                last_used_at?: string;
                                name: string;
                                prefix: string;
                            }[] | null;
                            low_balance_micro?: number;
                            members: {
                                /** Format: date-time */
                                created_at: string;
                                email: string;
                                id: string;
                                /** Format: date-time */
                                last_login_at?: string;
                                name: string;
                                role: string;
                            }[] | null;
                            notes: string;
                            plan_source: "" | "manual" | "provider";
                            provider_customer_id?: string;
                            /** @description true while a subscription is canceled at the end of its period and can still be resumed */
                            subscription_cancel_at_period_end?: boolean;
                            /** Format: date-time */
                            subscription_period_end?: string;
                            subscription_status?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/customers/{id}/subscription/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Undo the cancellation of a customer's subscription before its period ends (editor) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * Format: date-time
                             * @description set when the customer was removed but had money, usage or keys on record
                             */
                            archived_at?: string;
                            balance_micro: number;
                            /** Format: date-time */
                            created_at: string;
                            custom_limits: boolean;
                            email: string;
                            id: string;
                            is_test: boolean;
                            /** Format: date-time */
                            last_used_at?: string;
                            month_requests: number;
                            name: string;
                            plan_id?: string;
                            plan_name?: string;
                            status: "active" | "pending" | "suspended";
                        } & {
                            auto_recharge: {
                                amount_cents: number;
                                enabled: boolean;
                                /** Format: date-time */
                                failed_at?: string;
                                has_card: boolean;
                                threshold_micro: number;
                            };
                            custom: {
                                monthly_quota: number | null;
                                price_per_request_micro: number | null;
                                rps: number | null;
                            };
                            effective: {
                                billing_model: "payg" | "subscription" | "none";
                                monthly_quota?: number;
                                price_per_request_micro: number;
                                rps: number;
                                source: "custom" | "plan" | "payg";
                            };
                            keys: {
                                /** Format: date-time */
                                created_at: string;
                                id: string;
                                /** Format: date-time */
                                last_used_at?: string;
                                name: string;
                                prefix: string;
                            }[] | null;
                            low_balance_micro?: number;
                            members: {
                                /** Format: date-time */
                                created_at: string;
                                email: string;
                                id: string;
                                /** Format: date-time */
                                last_login_at?: string;
                                name: string;
                                role: string;
                            }[] | null;
                            notes: string;
                            plan_source: "" | "manual" | "provider";
                            provider_customer_id?: string;
                            /** @description true while a subscription is canceled at the end of its period and can still be resumed */
                            subscription_cancel_at_period_end?: boolean;
                            /** Format: date-time */
                            subscription_period_end?: string;
                            subscription_status?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/customers/{id}/subscription/switch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move a customer's subscription to another plan (editor)
         * @description The provider's subscription is updated first (it prorates); the customer's plan follows its event.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        plan_id: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * Format: date-time
                             * @description set when the customer was removed but had money, usage or keys on record
                             */
                            archived_at?: string;
                            balance_micro: number;
                            /** Format: date-time */
                            created_at: string;
                            custom_limits: boolean;
                            email: string;
                            id: string;
                            is_test: boolean;
                            /** Format: date-time */
                            last_used_at?: string;
                            month_requests: number;
                            name: string;
                            plan_id?: string;
                            plan_name?: string;
                            status: "active" | "pending" | "suspended";
                        } & {
                            auto_recharge: {
                                amount_cents: number;
                                enabled: boolean;
                                /** Format: date-time */
                                failed_at?: string;
                                has_card: boolean;
                                threshold_micro: number;
                            };
                            custom: {
                                monthly_quota: number | null;
                                price_per_request_micro: number | null;
                                rps: number | null;
                            };
                            effective: {
                                billing_model: "payg" | "subscription" | "none";
                                monthly_quota?: number;
                                price_per_request_micro: number;
                                rps: number;
                                source: "custom" | "plan" | "payg";
                            };
                            keys: {
                                /** Format: date-time */
                                created_at: string;
                                id: string;
                                /** Format: date-time */
                                last_used_at?: string;
                                name: string;
                                prefix: string;
                            }[] | null;
                            low_balance_micro?: number;
                            members: {
                                /** Format: date-time */
                                created_at: string;
                                email: string;
                                id: string;
                                /** Format: date-time */
                                last_login_at?: string;
                                name: string;
                                role: string;
                            }[] | null;
                            notes: string;
                            plan_source: "" | "manual" | "provider";
                            provider_customer_id?: string;
                            /** @description true while a subscription is canceled at the end of its period and can still be resumed */
                            subscription_cancel_at_period_end?: boolean;
                            /** Format: date-time */
                            subscription_period_end?: string;
                            subscription_status?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/customers/invite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Invite someone to become a customer (editor)
         * @description The mail links to the portal; signing up with the address makes them a customer, whatever the signup mode.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        email: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            sent: boolean;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/customers/invites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Open invitations to become a customer, newest first */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            invites: {
                                /** Format: date-time */
                                created_at: string;
                                email: string;
                                /** Format: date-time */
                                expires_at: string;
                                id: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/customers/invites/{invite}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an invitation; its link stops working (editor) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    invite: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/customers/invites/{invite}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send an invitation again with a new link, good for 7 more days (editor) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    invite: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            sent: boolean;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/domain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The API's custom domain, its state and the DNS records that prove it */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allowed: boolean;
                            /** Format: date-time */
                            checked_at?: string;
                            cname_target: string;
                            domain?: string;
                            error?: string;
                            status: "none" | "pending" | "verified" | "active" | "failed";
                            txt_name?: string;
                            txt_value?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        /**
         * Set the custom domain (admin); it is pending until its DNS records are checked
         * @description Add a CNAME record from the domain to `cname_target` and a TXT record at `txt_name` holding `txt_value`, then check. 402 when the platform plan has no custom domains; 409 when another API serves the domain.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description a host name of your own, such as login.example.com; not under the portal domain or the console's host */
                        domain: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allowed: boolean;
                            /** Format: date-time */
                            checked_at?: string;
                            cname_target: string;
                            domain?: string;
                            error?: string;
                            status: "none" | "pending" | "verified" | "active" | "failed";
                            txt_name?: string;
                            txt_value?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        post?: never;
        /** Remove the custom domain (admin): back to `none`, served no more */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allowed: boolean;
                            /** Format: date-time */
                            checked_at?: string;
                            cname_target: string;
                            domain?: string;
                            error?: string;
                            status: "none" | "pending" | "verified" | "active" | "failed";
                            txt_name?: string;
                            txt_value?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/domain/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check the DNS records now (admin)
         * @description Pending becomes verified when the TXT record proves ownership and the CNAME points at the target, then active when a certificate can be issued. `error` names the record that is missing or wrong.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allowed: boolean;
                            /** Format: date-time */
                            checked_at?: string;
                            cname_target: string;
                            domain?: string;
                            error?: string;
                            status: "none" | "pending" | "verified" | "active" | "failed";
                            txt_name?: string;
                            txt_value?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The API's events of the last 30 days, oldest first
         * @description A receiver that was down catches up by asking with after = the last event id it holds, until has_more is false.
         */
        get: {
            parameters: {
                query?: {
                    /** @description an event id: the page starts after it */
                    after?: string;
                    limit?: number;
                    /** @description an event type (issue 24 item 4) */
                    type?: "customer.created" | "customer.updated" | "customer.status_changed" | "customer.deleted" | "customer.balance_low" | "customer.balance_depleted" | "customer.balance_recovered" | "credit.added" | "payment.succeeded" | "payment.failed" | "payment.refunded" | "auto_recharge.failed" | "subscription.created" | "subscription.plan_changed" | "subscription.renewed" | "subscription.past_due" | "subscription.canceled" | "usage.threshold_reached" | "key.created" | "key.revoked" | "sdk.connected" | "sdk.disconnected" | "platform.allowance_threshold";
                };
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            events: {
                                /** @description object, and previous or reason where the event has them */
                                data: {
                                    [key: string]: unknown;
                                };
                                id: string;
                                /** Format: date-time */
                                timestamp: string;
                                type: string;
                            }[];
                            /** @description more events follow: ask again with after = the last id */
                            has_more: boolean;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Ledger entries, newest first, for the API or one customer, of every kind or one */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    customer_id?: string;
                    kind?: "welcome" | "credit" | "usage" | "topup" | "plan_credit" | "auto_recharge" | "refund" | "dispute" | "dispute_won";
                    limit?: number;
                };
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            entries: {
                                actor: string;
                                amount_micro: number;
                                /** Format: date-time */
                                created_at: string;
                                customer_id: string;
                                customer_name?: string;
                                id: string;
                                kind: string;
                                note: string;
                                ref?: string;
                                requests: number;
                                /** Format: date-time */
                                updated_at: string;
                                /** Format: date-time */
                                usage_day?: string;
                            }[] | null;
                            next_cursor?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/logo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The logo as an image, fetched from its address and served from the console host */
        get: {
            parameters: {
                query?: {
                    /** @description any value; a new one when the logo changes */
                    v?: string;
                };
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description a raster image: PNG, JPEG, GIF, WebP or icon */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "image/*": string;
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        /** Set the logo (https address), or remove it (null) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description an https address, or null to remove the logo */
                        logo_url: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accent_color: string;
                            api_base_url: string;
                            auto_recharge_allowed: boolean;
                            billable_status_codes: number[] | null;
                            /** Format: date-time */
                            created_at: string;
                            docs_url: string;
                            domain: {
                                allowed: boolean;
                                /** Format: date-time */
                                checked_at?: string;
                                cname_target: string;
                                domain?: string;
                                error?: string;
                                status: "none" | "pending" | "verified" | "active" | "failed";
                                txt_name?: string;
                                txt_value?: string;
                            };
                            /** Format: date-time */
                            first_usage_at?: string;
                            id: string;
                            key_header: string;
                            logo_url?: string;
                            low_balance_micro: number;
                            min_topup_cents: number;
                            monthly_quota: number;
                            name: string;
                            payg_enabled: boolean;
                            payments: {
                                account_id?: string;
                                account_name?: string;
                                charges_enabled: boolean;
                                configured: boolean;
                                connected: boolean;
                                /** Format: date-time */
                                connected_at?: string;
                                livemode: boolean;
                            };
                            plan: {
                                code: string;
                                /** @description apps people connect (dynamic registration, client ID metadata documents) may be turned on */
                                connected_apps: boolean;
                                custom_domain: boolean;
                                /** @description people may make their own API keys (spec 5.6) when the owner turns keys on */
                                end_user_keys: boolean;
                                max_customers: number;
                                monthly_requests: number;
                                name: string;
                                price_monthly_cents: number;
                                purchasable: boolean;
                                remove_branding: boolean;
                                teams: boolean;
                            };
                            /** Format: date-time */
                            plan_grace_until?: string;
                            /** Format: date-time */
                            plan_period_end?: string;
                            plan_status: "active" | "past_due" | "canceled";
                            plans_enabled: boolean;
                            portal_url: string;
                            /** Format: date-time */
                            previous_secret_valid_until?: string;
                            price_per_request_micro: number;
                            privacy_url: string;
                            role: "owner" | "admin" | "editor" | "viewer";
                            rps: number;
                            sdk_agent?: string;
                            /** Format: date-time */
                            sdk_first_seen_at?: string;
                            /** Format: date-time */
                            sdk_last_seen_at?: string;
                            secret_prefix: string;
                            signup_mode: "open" | "approval" | "invite";
                            slug: string;
                            status: "active" | "suspended";
                            support_email: string;
                            suspended_reason?: string;
                            tagline: string;
                            terms_url: string;
                            topup_amounts_cents: number[] | null;
                            website_url: string;
                            welcome_credit_micro: number;
                            workspace_id: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The payments connection of the API */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account_id?: string;
                            account_name?: string;
                            charges_enabled: boolean;
                            configured: boolean;
                            connected: boolean;
                            /** Format: date-time */
                            connected_at?: string;
                            livemode: boolean;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Disconnect the payments account (admin) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/payments/connect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Connect the owner's payments account (admin); answers the provider's onboarding page */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            url: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/plan/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel the platform plan at the end of its paid period (owner); the API is on free after */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/plan/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Buy or change the platform plan of the API (owner)
         * @description Without a live subscription: answers the provider's checkout page. With one: moves it to this plan at once, prorated by the provider (never a second subscription), and answers the console's plan page; `free` cancels at the end of the period.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        plan_code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            url: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/plan/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Keep the platform plan: undo a cancellation before the period ends (owner) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Subscription plans with subscriber counts */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            plans: {
                                active: boolean;
                                /** Format: date-time */
                                created_at: string;
                                credit_micro: number;
                                description: string;
                                id: string;
                                monthly_quota: number | null;
                                name: string;
                                /** @description the plan's page on the portal; a private plan is offered by this link only */
                                portal_url?: string;
                                price_monthly_cents: number;
                                price_per_request_micro: number | null;
                                provider_price_id?: string;
                                provider_sync_error?: string;
                                /** Format: date-time */
                                provider_synced_at?: string;
                                rps: number | null;
                                sort: number;
                                subscribers: number;
                                visibility: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        /** Create a plan (editor) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        active?: boolean;
                        /** @description credit added on every paid invoice */
                        credit_micro?: number;
                        description?: string;
                        /** @description null uses the API default, 0 is unlimited */
                        monthly_quota?: number | null;
                        name: string;
                        price_monthly_cents: number;
                        price_per_request_micro?: number | null;
                        rps?: number | null;
                        sort?: number;
                        /** @default public */
                        visibility?: "public" | "private";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            /** Format: date-time */
                            created_at: string;
                            credit_micro: number;
                            description: string;
                            id: string;
                            monthly_quota: number | null;
                            name: string;
                            /** @description the plan's page on the portal; a private plan is offered by this link only */
                            portal_url?: string;
                            price_monthly_cents: number;
                            price_per_request_micro: number | null;
                            provider_price_id?: string;
                            provider_sync_error?: string;
                            /** Format: date-time */
                            provider_synced_at?: string;
                            rps: number | null;
                            sort: number;
                            subscribers: number;
                            visibility: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/plans/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a plan (editor)
         * @description A plan with subscribers is deactivated instead (200 with the plan); one without is deleted (204).
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            /** Format: date-time */
                            created_at: string;
                            credit_micro: number;
                            description: string;
                            id: string;
                            monthly_quota: number | null;
                            name: string;
                            /** @description the plan's page on the portal; a private plan is offered by this link only */
                            portal_url?: string;
                            price_monthly_cents: number;
                            price_per_request_micro: number | null;
                            provider_price_id?: string;
                            provider_sync_error?: string;
                            /** Format: date-time */
                            provider_synced_at?: string;
                            rps: number | null;
                            sort: number;
                            subscribers: number;
                            visibility: string;
                        };
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Change a plan (editor); subscribers move to its new terms */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        active?: boolean;
                        /** @description credit added on every paid invoice */
                        credit_micro?: number;
                        description?: string;
                        /** @description null uses the API default, 0 is unlimited */
                        monthly_quota?: number | null;
                        name?: string;
                        price_monthly_cents?: number;
                        price_per_request_micro?: number | null;
                        rps?: number | null;
                        sort?: number;
                        visibility?: "public" | "private";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            /** Format: date-time */
                            created_at: string;
                            credit_micro: number;
                            description: string;
                            id: string;
                            monthly_quota: number | null;
                            name: string;
                            /** @description the plan's page on the portal; a private plan is offered by this link only */
                            portal_url?: string;
                            price_monthly_cents: number;
                            price_per_request_micro: number | null;
                            provider_price_id?: string;
                            provider_sync_error?: string;
                            /** Format: date-time */
                            provider_synced_at?: string;
                            rps: number | null;
                            sort: number;
                            subscribers: number;
                            visibility: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/apis/{api}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resume a suspended API (admin) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accent_color: string;
                            api_base_url: string;
                            auto_recharge_allowed: boolean;
                            billable_status_codes: number[] | null;
                            /** Format: date-time */
                            created_at: string;
                            docs_url: string;
                            domain: {
                                allowed: boolean;
                                /** Format: date-time */
                                checked_at?: string;
                                cname_target: string;
                                domain?: string;
                                error?: string;
                                status: "none" | "pending" | "verified" | "active" | "failed";
                                txt_name?: string;
                                txt_value?: string;
                            };
                            /** Format: date-time */
                            first_usage_at?: string;
                            id: string;
                            key_header: string;
                            logo_url?: string;
                            low_balance_micro: number;
                            min_topup_cents: number;
                            monthly_quota: number;
                            name: string;
                            payg_enabled: boolean;
                            payments: {
                                account_id?: string;
                                account_name?: string;
                                charges_enabled: boolean;
                                configured: boolean;
                                connected: boolean;
                                /** Format: date-time */
                                connected_at?: string;
                                livemode: boolean;
                            };
                            plan: {
                                code: string;
                                /** @description apps people connect (dynamic registration, client ID metadata documents) may be turned on */
                                connected_apps: boolean;
                                custom_domain: boolean;
                                /** @description people may make their own API keys (spec 5.6) when the owner turns keys on */
                                end_user_keys: boolean;
                                max_customers: number;
                                monthly_requests: number;
                                name: string;
                                price_monthly_cents: number;
                                purchasable: boolean;
                                remove_branding: boolean;
                                teams: boolean;
                            };
                            /** Format: date-time */
                            plan_grace_until?: string;
                            /** Format: date-time */
                            plan_period_end?: string;
                            plan_status: "active" | "past_due" | "canceled";
                            plans_enabled: boolean;
                            portal_url: string;
                            /** Format: date-time */
                            previous_secret_valid_until?: string;
                            price_per_request_micro: number;
                            privacy_url: string;
                            role: "owner" | "admin" | "editor" | "viewer";
                            rps: number;
                            sdk_agent?: string;
                            /** Format: date-time */
                            sdk_first_seen_at?: string;
                            /** Format: date-time */
                            sdk_last_seen_at?: string;
                            secret_prefix: string;
                            signup_mode: "open" | "approval" | "invite";
                            slug: string;
                            status: "active" | "suspended";
                            support_email: string;
                            suspended_reason?: string;
                            tagline: string;
                            terms_url: string;
                            topup_amounts_cents: number[] | null;
                            website_url: string;
                            welcome_credit_micro: number;
                            workspace_id: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Reveal the SDK secret (admin) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            secret: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate the SDK secret (admin); the old one works grace_hours more */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description how long the old secret keeps working
                         * @default 24
                         */
                        grace_hours: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            secret: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/signin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Sign-in service settings */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description lifetime of access tokens (at most 600 for apps people connect) */
                            access_token_ttl_s: number;
                            connected_apps: "on" | "off";
                            /** @description discovery stops advertising client_id_metadata_document_supported, so MCP clients register instead; metadata documents are still accepted (default false) */
                            metadata_documents_unadvertised: boolean;
                            refresh_token_ttl_s: number;
                            /** @description end-user keys may carry sensitive permissions */
                            sensitive_permissions_allowed: boolean;
                            /** @description how long a sign-in lasts on the sign-in pages */
                            session_ttl_s: number;
                            signups: "open" | "closed";
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change sign-in service settings (editor) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description lifetime of access tokens (at most 600 for apps people connect) */
                        access_token_ttl_s?: number;
                        connected_apps?: "on" | "off";
                        /** @description discovery stops advertising client_id_metadata_document_supported, so MCP clients register instead; metadata documents are still accepted (default false) */
                        metadata_documents_unadvertised?: boolean;
                        refresh_token_ttl_s?: number;
                        /** @description end-user keys may carry sensitive permissions */
                        sensitive_permissions_allowed?: boolean;
                        /** @description how long a sign-in lasts on the sign-in pages */
                        session_ttl_s?: number;
                        signups?: "open" | "closed";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description lifetime of access tokens (at most 600 for apps people connect) */
                            access_token_ttl_s: number;
                            connected_apps: "on" | "off";
                            /** @description discovery stops advertising client_id_metadata_document_supported, so MCP clients register instead; metadata documents are still accepted (default false) */
                            metadata_documents_unadvertised: boolean;
                            refresh_token_ttl_s: number;
                            /** @description end-user keys may carry sensitive permissions */
                            sensitive_permissions_allowed: boolean;
                            /** @description how long a sign-in lasts on the sign-in pages */
                            session_ttl_s: number;
                            signups: "open" | "closed";
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/apis/{api}/signin/apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The owner's applications */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            apps: {
                                blocked: boolean;
                                /** Format: date-time */
                                created_at: string;
                                has_secret: boolean;
                                /** @description the client_id */
                                id: string;
                                kind: "web" | "spa" | "native";
                                /** Format: date-time */
                                last_used_at?: string;
                                name: string;
                                origin: "owner" | "registered" | "metadata";
                                own_app: boolean;
                                post_logout_redirect_uris: string[];
                                /** Format: date-time */
                                previous_secret_valid_until?: string;
                                redirect_uris: string[];
                                refresh_tokens: boolean;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        /** Add an application (editor); a web app's client secret is shown once */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            /** @description kind is fixed at creation; web apps get a client secret, shown once */
            requestBody: {
                content: {
                    "application/json": {
                        kind: "web" | "spa" | "native";
                        name: string;
                        /** @description the owner's own app may get the roles scope */
                        own_app?: boolean;
                        post_logout_redirect_uris?: string[];
                        redirect_uris: string[];
                        /** @description the app may ask for offline_access */
                        refresh_tokens?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            blocked: boolean;
                            /** Format: date-time */
                            created_at: string;
                            has_secret: boolean;
                            /** @description the client_id */
                            id: string;
                            kind: "web" | "spa" | "native";
                            /** Format: date-time */
                            last_used_at?: string;
                            name: string;
                            origin: "owner" | "registered" | "metadata";
                            own_app: boolean;
                            post_logout_redirect_uris: string[];
                            /** Format: date-time */
                            previous_secret_valid_until?: string;
                            redirect_uris: string[];
                            refresh_tokens: boolean;
                        } & {
                            /** @description web apps only; shown once */
                            client_secret?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/signin/apps/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One application */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            blocked: boolean;
                            /** Format: date-time */
                            created_at: string;
                            has_secret: boolean;
                            /** @description the client_id */
                            id: string;
                            kind: "web" | "spa" | "native";
                            /** Format: date-time */
                            last_used_at?: string;
                            name: string;
                            origin: "owner" | "registered" | "metadata";
                            own_app: boolean;
                            post_logout_redirect_uris: string[];
                            /** Format: date-time */
                            previous_secret_valid_until?: string;
                            redirect_uris: string[];
                            refresh_tokens: boolean;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete an application and everything it was granted (editor) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Change an application (editor); its kind is fixed */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        /** @description the owner's own app may get the roles scope */
                        own_app?: boolean;
                        post_logout_redirect_uris?: string[];
                        redirect_uris?: string[];
                        /** @description the app may ask for offline_access */
                        refresh_tokens?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            blocked: boolean;
                            /** Format: date-time */
                            created_at: string;
                            has_secret: boolean;
                            /** @description the client_id */
                            id: string;
                            kind: "web" | "spa" | "native";
                            /** Format: date-time */
                            last_used_at?: string;
                            name: string;
                            origin: "owner" | "registered" | "metadata";
                            own_app: boolean;
                            post_logout_redirect_uris: string[];
                            /** Format: date-time */
                            previous_secret_valid_until?: string;
                            redirect_uris: string[];
                            refresh_tokens: boolean;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/apis/{api}/signin/apps/{id}/secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate a web app's client secret (admin); the old one works 24 hours more */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            blocked: boolean;
                            /** Format: date-time */
                            created_at: string;
                            has_secret: boolean;
                            /** @description the client_id */
                            id: string;
                            kind: "web" | "spa" | "native";
                            /** Format: date-time */
                            last_used_at?: string;
                            name: string;
                            origin: "owner" | "registered" | "metadata";
                            own_app: boolean;
                            post_logout_redirect_uris: string[];
                            /** Format: date-time */
                            previous_secret_valid_until?: string;
                            redirect_uris: string[];
                            refresh_tokens: boolean;
                        } & {
                            /** @description shown once */
                            client_secret: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/signin/connected-apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Apps people connected on their own (registered, or by a metadata document), newest first, with a cursor */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    limit?: number;
                };
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            apps: {
                                application_type: "native" | "web";
                                blocked: boolean;
                                /** @description an id given at registration, or the metadata document URL */
                                client_id: string;
                                /** Format: date-time */
                                created_at: string;
                                /** @description the metadata document's host, or where a registered app sends people back */
                                host: string;
                                kind: "registered" | "metadata";
                                /** Format: date-time */
                                last_used_at?: string;
                                /** @description the app's own name: unverified */
                                name: string;
                                /** @description people who connected it */
                                people: number;
                                redirect_uris: string[];
                                refresh_tokens: boolean;
                            }[];
                            next_cursor?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/signin/connected-apps/block": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Block a connected app (editor): it signs nobody in, and every grant it holds is revoked */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        client_id: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            application_type: "native" | "web";
                            blocked: boolean;
                            /** @description an id given at registration, or the metadata document URL */
                            client_id: string;
                            /** Format: date-time */
                            created_at: string;
                            /** @description the metadata document's host, or where a registered app sends people back */
                            host: string;
                            kind: "registered" | "metadata";
                            /** Format: date-time */
                            last_used_at?: string;
                            /** @description the app's own name: unverified */
                            name: string;
                            /** @description people who connected it */
                            people: number;
                            redirect_uris: string[];
                            refresh_tokens: boolean;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/signin/connected-apps/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Delete a connected app with its grants (editor); a metadata document app comes back on its next use, so block one to keep it out */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        client_id: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/signin/connected-apps/unblock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Unblock a connected app (editor); grants revoked by the block stay revoked */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        client_id: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            application_type: "native" | "web";
                            blocked: boolean;
                            /** @description an id given at registration, or the metadata document URL */
                            client_id: string;
                            /** Format: date-time */
                            created_at: string;
                            /** @description the metadata document's host, or where a registered app sends people back */
                            host: string;
                            kind: "registered" | "metadata";
                            /** Format: date-time */
                            last_used_at?: string;
                            /** @description the app's own name: unverified */
                            name: string;
                            /** @description people who connected it */
                            people: number;
                            redirect_uris: string[];
                            refresh_tokens: boolean;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/signin/key-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** End-user API key settings */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description people may make their own API keys; needs a platform plan that includes them */
                            enabled: boolean;
                            /** @description longest lifetime of a new key in days; null: no limit, which also allows keys that never expire; applies to new keys only */
                            max_lifetime_days: number | null;
                            /** @description the API's platform plan includes end-user keys; without it keys answer inactive */
                            plan_includes_keys: boolean;
                            /** @description start of new keys: 2 to 10 lowercase letters or digits, starting with a letter; applies to new keys only */
                            prefix: string;
                            /** @description keys may carry sensitive permissions; turning it off removes them from every key at its next check */
                            sensitive_permissions_allowed: boolean;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change end-user API key settings (editor); turning keys on needs a platform plan that includes them */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description people may make their own API keys; needs a platform plan that includes them */
                        enabled?: boolean;
                        /** @description longest lifetime of a new key in days; null: no limit, which also allows keys that never expire; applies to new keys only */
                        max_lifetime_days?: number | null;
                        /** @description start of new keys: 2 to 10 lowercase letters or digits, starting with a letter; applies to new keys only */
                        prefix?: string;
                        /** @description keys may carry sensitive permissions; turning it off removes them from every key at its next check */
                        sensitive_permissions_allowed?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description people may make their own API keys; needs a platform plan that includes them */
                            enabled: boolean;
                            /** @description longest lifetime of a new key in days; null: no limit, which also allows keys that never expire; applies to new keys only */
                            max_lifetime_days: number | null;
                            /** @description the API's platform plan includes end-user keys; without it keys answer inactive */
                            plan_includes_keys: boolean;
                            /** @description start of new keys: 2 to 10 lowercase letters or digits, starting with a letter; applies to new keys only */
                            prefix: string;
                            /** @description keys may carry sensitive permissions; turning it off removes them from every key at its next check */
                            sensitive_permissions_allowed: boolean;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/apis/{api}/signin/people": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** People who signed in, newest first, with a cursor */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    limit?: number;
                    /** @description part of an e-mail address or name */
                    q?: string;
                    status?: "active" | "suspended";
                };
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            next_cursor?: string;
                            people: {
                                /** Format: date-time */
                                created_at: string;
                                email: string;
                                email_verified: boolean;
                                id: string;
                                /** Format: date-time */
                                last_login_at?: string;
                                name: string;
                                roles: {
                                    id: string;
                                    name: string;
                                }[];
                                status: "active" | "suspended";
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/signin/people/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One person with their roles */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            email: string;
                            email_verified: boolean;
                            id: string;
                            /** Format: date-time */
                            last_login_at?: string;
                            name: string;
                            roles: {
                                id: string;
                                name: string;
                            }[];
                            status: "active" | "suspended";
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Suspend or reactivate a person (editor) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            /** @description suspending ends the person's sessions; their tokens and keys answer inactive */
            requestBody: {
                content: {
                    "application/json": {
                        status: "active" | "suspended";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            email: string;
                            email_verified: boolean;
                            id: string;
                            /** Format: date-time */
                            last_login_at?: string;
                            name: string;
                            roles: {
                                id: string;
                                name: string;
                            }[];
                            status: "active" | "suspended";
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/apis/{api}/signin/people/{id}/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set a person's roles (editor) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        role_ids: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            email: string;
                            email_verified: boolean;
                            id: string;
                            /** Format: date-time */
                            last_login_at?: string;
                            name: string;
                            roles: {
                                id: string;
                                name: string;
                            }[];
                            status: "active" | "suspended";
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/signin/people/{id}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A person's live sessions on the sign-in pages, newest first (at most 100) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            sessions: {
                                /** @description how the person signed in (RFC 8176: pwd, otp) */
                                amr: string[];
                                /** Format: date-time */
                                auth_time: string;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                expires_at: string;
                                /** @description the `sid` of the tokens issued in this session */
                                id: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/signin/people/{id}/sessions/{session}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End one live session of a person (editor): that browser is signed out and the tokens issued in it answer inactive */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                    session: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/signin/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Roles and the permissions they give */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            roles: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                id: string;
                                name: string;
                                /** @description people holding the role */
                                people: number;
                                permissions: {
                                    permission: string;
                                    server_id: string;
                                }[];
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        /** Add a role (editor) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        name: string;
                        /** @description replaces the whole list */
                        permissions?: {
                            permission: string;
                            server_id: string;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            id: string;
                            name: string;
                            /** @description people holding the role */
                            people: number;
                            permissions: {
                                permission: string;
                                server_id: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/signin/roles/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a role; the people holding it lose it (editor) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Change a role (editor); a permission list replaces the old one */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        name?: string;
                        /** @description replaces the whole list */
                        permissions?: {
                            permission: string;
                            server_id: string;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            id: string;
                            name: string;
                            /** @description people holding the role */
                            people: number;
                            permissions: {
                                permission: string;
                                server_id: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/apis/{api}/signin/servers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** APIs and MCP servers tokens are for, with their permissions */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            servers: {
                                /** @description rs_…, for introspection */
                                client_id: string;
                                /** Format: date-time */
                                created_at: string;
                                id: string;
                                name: string;
                                permissions: {
                                    description: string;
                                    name: string;
                                    sensitive: boolean;
                                }[];
                                /** Format: date-time */
                                previous_secret_valid_until?: string;
                                requests_per_minute: number | null;
                                resource_url: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        /** Add a server (editor); its secret is shown once */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        /** @description replaces the whole list */
                        permissions?: {
                            description?: string;
                            /** @description a scope; not a standard scope name */
                            name: string;
                            /** @description end-user keys carry it only when the service allows sensitive permissions */
                            sensitive?: boolean;
                        }[];
                        /** @description per person at this server; null for none */
                        requests_per_minute?: number | null;
                        /** @description absolute http(s) URL, no fragment: the `resource` and token `aud`, exactly as given */
                        resource_url: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description rs_…, for introspection */
                            client_id: string;
                            /** Format: date-time */
                            created_at: string;
                            id: string;
                            name: string;
                            permissions: {
                                description: string;
                                name: string;
                                sensitive: boolean;
                            }[];
                            /** Format: date-time */
                            previous_secret_valid_until?: string;
                            requests_per_minute: number | null;
                            resource_url: string;
                        } & {
                            /** @description shown once */
                            client_secret: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/signin/servers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One server */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description rs_…, for introspection */
                            client_id: string;
                            /** Format: date-time */
                            created_at: string;
                            id: string;
                            name: string;
                            permissions: {
                                description: string;
                                name: string;
                                sensitive: boolean;
                            }[];
                            /** Format: date-time */
                            previous_secret_valid_until?: string;
                            requests_per_minute: number | null;
                            resource_url: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a server; its permissions leave every role (editor) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Change a server (editor); a permission list replaces the old one, and roles lose removed permissions */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        /** @description replaces the whole list */
                        permissions?: {
                            description?: string;
                            /** @description a scope; not a standard scope name */
                            name: string;
                            /** @description end-user keys carry it only when the service allows sensitive permissions */
                            sensitive?: boolean;
                        }[];
                        /** @description per person at this server; null for none */
                        requests_per_minute?: number | null;
                        /** @description absolute http(s) URL, no fragment: the `resource` and token `aud`, exactly as given */
                        resource_url?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description rs_…, for introspection */
                            client_id: string;
                            /** Format: date-time */
                            created_at: string;
                            id: string;
                            name: string;
                            permissions: {
                                description: string;
                                name: string;
                                sensitive: boolean;
                            }[];
                            /** Format: date-time */
                            previous_secret_valid_until?: string;
                            requests_per_minute: number | null;
                            resource_url: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/apis/{api}/signin/servers/{id}/secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate a server's secret (admin); the old one works 24 hours more */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description rs_…, for introspection */
                            client_id: string;
                            /** Format: date-time */
                            created_at: string;
                            id: string;
                            name: string;
                            permissions: {
                                description: string;
                                name: string;
                                sensitive: boolean;
                            }[];
                            /** Format: date-time */
                            previous_secret_valid_until?: string;
                            requests_per_minute: number | null;
                            resource_url: string;
                        } & {
                            /** @description shown once */
                            client_secret: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/signin/signing-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Signing keys, newest first, with how long retired ones stay published */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            keys: {
                                /** @description this key signs new tokens */
                                active: boolean;
                                /** Format: date-time */
                                created_at: string;
                                kid: string;
                                /** Format: date-time */
                                published_until?: string;
                                /** Format: date-time */
                                retired_at?: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/signin/signing-keys/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate the signing key (admin); the old one stays published for the token lifetime plus 24 hours */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            keys: {
                                /** @description this key signs new tokens */
                                active: boolean;
                                /** Format: date-time */
                                created_at: string;
                                kid: string;
                                /** Format: date-time */
                                published_until?: string;
                                /** Format: date-time */
                                retired_at?: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Requests, charges and customers; days in UTC */
        get: {
            parameters: {
                query?: {
                    days?: number;
                };
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active_customers: number;
                            charged_month_micro: number;
                            customers: number;
                            daily: {
                                billable: number;
                                charged_micro: number;
                                day: string;
                                errors: number;
                                requests: number;
                            }[] | null;
                            pending_customers: number;
                            platform_limit: number;
                            requests_month: number;
                            requests_today: number;
                            top_customers: {
                                balance_micro: number;
                                charged_micro: number;
                                id: string;
                                name: string;
                                requests: number;
                            }[] | null;
                            topups_month_micro: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/suspend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Suspend the API: every customer is refused until it resumes (admin) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        reason?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accent_color: string;
                            api_base_url: string;
                            auto_recharge_allowed: boolean;
                            billable_status_codes: number[] | null;
                            /** Format: date-time */
                            created_at: string;
                            docs_url: string;
                            domain: {
                                allowed: boolean;
                                /** Format: date-time */
                                checked_at?: string;
                                cname_target: string;
                                domain?: string;
                                error?: string;
                                status: "none" | "pending" | "verified" | "active" | "failed";
                                txt_name?: string;
                                txt_value?: string;
                            };
                            /** Format: date-time */
                            first_usage_at?: string;
                            id: string;
                            key_header: string;
                            logo_url?: string;
                            low_balance_micro: number;
                            min_topup_cents: number;
                            monthly_quota: number;
                            name: string;
                            payg_enabled: boolean;
                            payments: {
                                account_id?: string;
                                account_name?: string;
                                charges_enabled: boolean;
                                configured: boolean;
                                connected: boolean;
                                /** Format: date-time */
                                connected_at?: string;
                                livemode: boolean;
                            };
                            plan: {
                                code: string;
                                /** @description apps people connect (dynamic registration, client ID metadata documents) may be turned on */
                                connected_apps: boolean;
                                custom_domain: boolean;
                                /** @description people may make their own API keys (spec 5.6) when the owner turns keys on */
                                end_user_keys: boolean;
                                max_customers: number;
                                monthly_requests: number;
                                name: string;
                                price_monthly_cents: number;
                                purchasable: boolean;
                                remove_branding: boolean;
                                teams: boolean;
                            };
                            /** Format: date-time */
                            plan_grace_until?: string;
                            /** Format: date-time */
                            plan_period_end?: string;
                            plan_status: "active" | "past_due" | "canceled";
                            plans_enabled: boolean;
                            portal_url: string;
                            /** Format: date-time */
                            previous_secret_valid_until?: string;
                            price_per_request_micro: number;
                            privacy_url: string;
                            role: "owner" | "admin" | "editor" | "viewer";
                            rps: number;
                            sdk_agent?: string;
                            /** Format: date-time */
                            sdk_first_seen_at?: string;
                            /** Format: date-time */
                            sdk_last_seen_at?: string;
                            secret_prefix: string;
                            signup_mode: "open" | "approval" | "invite";
                            slug: string;
                            status: "active" | "suspended";
                            support_email: string;
                            suspended_reason?: string;
                            tagline: string;
                            terms_url: string;
                            topup_amounts_cents: number[] | null;
                            website_url: string;
                            welcome_credit_micro: number;
                            workspace_id: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/test-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new key of the funded test customer (editor) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            balance_micro: number;
                            customer_id: string;
                            key: string;
                            key_header: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The API's webhook endpoints */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            webhooks: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                /** Format: date-time */
                                disabled_at?: string;
                                /** @description failing: every delivery failed for 5 days */
                                disabled_reason?: "manual" | "failing";
                                enabled: boolean;
                                event_types: string[];
                                /**
                                 * Format: date-time
                                 * @description the first failed attempt since the last success
                                 */
                                failing_since?: string;
                                id: string;
                                /**
                                 * Format: date-time
                                 * @description until then deliveries are signed with the previous secret too
                                 */
                                previous_secret_expires_at?: string;
                                /** Format: date-time */
                                updated_at: string;
                                url: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Add a webhook endpoint (editor); its secret is shown this once
         * @description Events are signed by the Standard Webhooks scheme (webhook-id, webhook-timestamp, webhook-signature) with the endpoint secret, and retried at 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h until a 2xx answer.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        /** @description the event types sent to it; empty: every type */
                        event_types?: ("customer.created" | "customer.updated" | "customer.status_changed" | "customer.deleted" | "customer.balance_low" | "customer.balance_depleted" | "customer.balance_recovered" | "credit.added" | "payment.succeeded" | "payment.failed" | "payment.refunded" | "auto_recharge.failed" | "subscription.created" | "subscription.plan_changed" | "subscription.renewed" | "subscription.past_due" | "subscription.canceled" | "usage.threshold_reached" | "key.created" | "key.revoked" | "sdk.connected" | "sdk.disconnected" | "platform.allowance_threshold")[];
                        /** @description a public https address; outside production with UNSAFE_OUTBOUND_PRIVATE=true, loopback and http too */
                        url: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            /** Format: date-time */
                            disabled_at?: string;
                            /** @description failing: every delivery failed for 5 days */
                            disabled_reason?: "manual" | "failing";
                            enabled: boolean;
                            event_types: string[];
                            /**
                             * Format: date-time
                             * @description the first failed attempt since the last success
                             */
                            failing_since?: string;
                            id: string;
                            /**
                             * Format: date-time
                             * @description until then deliveries are signed with the previous secret too
                             */
                            previous_secret_expires_at?: string;
                            /** Format: date-time */
                            updated_at: string;
                            url: string;
                        } & {
                            /** @description whsec_…, shown this once */
                            secret: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/webhooks/{endpoint}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A webhook endpoint */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    endpoint: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            /** Format: date-time */
                            disabled_at?: string;
                            /** @description failing: every delivery failed for 5 days */
                            disabled_reason?: "manual" | "failing";
                            enabled: boolean;
                            event_types: string[];
                            /**
                             * Format: date-time
                             * @description the first failed attempt since the last success
                             */
                            failing_since?: string;
                            id: string;
                            /**
                             * Format: date-time
                             * @description until then deliveries are signed with the previous secret too
                             */
                            previous_secret_expires_at?: string;
                            /** Format: date-time */
                            updated_at: string;
                            url: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Remove a webhook endpoint and its deliveries (editor) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    endpoint: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Change, disable or enable a webhook endpoint (editor) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    endpoint: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        /** @description false disables the endpoint; true enables it again, and its pending deliveries resume */
                        enabled?: boolean;
                        /** @description the event types sent to it; empty: every type */
                        event_types?: ("customer.created" | "customer.updated" | "customer.status_changed" | "customer.deleted" | "customer.balance_low" | "customer.balance_depleted" | "customer.balance_recovered" | "credit.added" | "payment.succeeded" | "payment.failed" | "payment.refunded" | "auto_recharge.failed" | "subscription.created" | "subscription.plan_changed" | "subscription.renewed" | "subscription.past_due" | "subscription.canceled" | "usage.threshold_reached" | "key.created" | "key.revoked" | "sdk.connected" | "sdk.disconnected" | "platform.allowance_threshold")[];
                        url?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            /** Format: date-time */
                            disabled_at?: string;
                            /** @description failing: every delivery failed for 5 days */
                            disabled_reason?: "manual" | "failing";
                            enabled: boolean;
                            event_types: string[];
                            /**
                             * Format: date-time
                             * @description the first failed attempt since the last success
                             */
                            failing_since?: string;
                            id: string;
                            /**
                             * Format: date-time
                             * @description until then deliveries are signed with the previous secret too
                             */
                            previous_secret_expires_at?: string;
                            /** Format: date-time */
                            updated_at: string;
                            url: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/apis/{api}/webhooks/{endpoint}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The endpoint's deliveries, newest first, with a cursor */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    limit?: number;
                };
                header?: never;
                path: {
                    api: string;
                    endpoint: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deliveries: {
                                attempts: number;
                                /** Format: date-time */
                                created_at: string;
                                /** @description why the last attempt failed */
                                error?: string;
                                /** @description the webhook-id header of every attempt */
                                event_id: string;
                                event_type: string;
                                id: string;
                                /** Format: date-time */
                                last_attempt_at?: string;
                                /** Format: date-time */
                                next_attempt_at?: string;
                                /** @description the first 2 KB of the receiver's answer at the last attempt */
                                response_excerpt?: string;
                                status: "pending" | "succeeded" | "failed";
                                /** @description the receiver's status code at the last attempt */
                                status_code?: number;
                            }[];
                            next_cursor?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/webhooks/{endpoint}/deliveries/{delivery}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a delivery's event again now, as a new delivery (editor) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    delivery: string;
                    endpoint: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            attempts: number;
                            /** Format: date-time */
                            created_at: string;
                            /** @description why the last attempt failed */
                            error?: string;
                            /** @description the webhook-id header of every attempt */
                            event_id: string;
                            event_type: string;
                            id: string;
                            /** Format: date-time */
                            last_attempt_at?: string;
                            /** Format: date-time */
                            next_attempt_at?: string;
                            /** @description the first 2 KB of the receiver's answer at the last attempt */
                            response_excerpt?: string;
                            status: "pending" | "succeeded" | "failed";
                            /** @description the receiver's status code at the last attempt */
                            status_code?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/webhooks/{endpoint}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send every event since a time again to this endpoint (editor) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    endpoint: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: date-time
                         * @description every event of the API since then (up to 30 days back) is sent again to this endpoint
                         */
                        since: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description deliveries made */
                            deliveries: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/webhooks/{endpoint}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new secret, shown this once; the old one keeps signing for 24 hours (editor) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    endpoint: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            /** Format: date-time */
                            disabled_at?: string;
                            /** @description failing: every delivery failed for 5 days */
                            disabled_reason?: "manual" | "failing";
                            enabled: boolean;
                            event_types: string[];
                            /**
                             * Format: date-time
                             * @description the first failed attempt since the last success
                             */
                            failing_since?: string;
                            id: string;
                            /**
                             * Format: date-time
                             * @description until then deliveries are signed with the previous secret too
                             */
                            previous_secret_expires_at?: string;
                            /** Format: date-time */
                            updated_at: string;
                            url: string;
                        } & {
                            /** @description whsec_…, shown this once */
                            secret: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apis/{api}/webhooks/{endpoint}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a webhook.test event to this endpoint (editor) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    api: string;
                    endpoint: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            attempts: number;
                            /** Format: date-time */
                            created_at: string;
                            /** @description why the last attempt failed */
                            error?: string;
                            /** @description the webhook-id header of every attempt */
                            event_id: string;
                            event_type: string;
                            id: string;
                            /** Format: date-time */
                            last_attempt_at?: string;
                            /** Format: date-time */
                            next_attempt_at?: string;
                            /** @description the first 2 KB of the receiver's answer at the last attempt */
                            response_excerpt?: string;
                            status: "pending" | "succeeded" | "failed";
                            /** @description the receiver's status code at the last attempt */
                            status_code?: number;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with e-mail and password */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description send with the authenticator code to /auth/login/2fa */
                            challenge?: string;
                            two_factor_required: boolean;
                            user?: {
                                /** Format: date-time */
                                created_at: string;
                                email: string;
                                id: string;
                                name: string;
                                /** @description authenticator two-factor sign-in is on */
                                two_factor: boolean;
                            };
                            workspace_id?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login/2fa": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Finish a sign-in with an authenticator or recovery code */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        challenge: string;
                        code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            user: {
                                /** Format: date-time */
                                created_at: string;
                                email: string;
                                id: string;
                                name: string;
                                /** @description authenticator two-factor sign-in is on */
                                two_factor: boolean;
                            };
                            workspace_id?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End this session */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ok: boolean;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password/forgot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * E-mail a password reset code
         * @description The answer is the same whether or not the address has an account.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        email: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            sent: boolean;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a new password with the ticket
         * @description Ends every session; signs in unless two-factor is on.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        password: string;
                        ticket: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            signed_in: boolean;
                            user?: {
                                /** Format: date-time */
                                created_at: string;
                                email: string;
                                id: string;
                                name: string;
                                /** @description authenticator two-factor sign-in is on */
                                two_factor: boolean;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Trade the e-mailed code for a reset ticket */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code: string;
                        /** Format: email */
                        email: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            expires_at: string;
                            /** @description works once, for 30 minutes */
                            ticket: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/signup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * E-mail a six-digit sign-up code
         * @description The answer is the same whether or not the address has an account.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        email: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            sent: boolean;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/signup/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create the account with the ticket, a name and a password */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        password: string;
                        ticket: string;
                        /** @description defaults to the person's name */
                        workspace?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            user: {
                                /** Format: date-time */
                                created_at: string;
                                email: string;
                                id: string;
                                name: string;
                                /** @description authenticator two-factor sign-in is on */
                                two_factor: boolean;
                            };
                            workspace_id?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/signup/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Trade the e-mailed code for a sign-up ticket */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code: string;
                        /** Format: email */
                        email: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            expires_at: string;
                            /** @description works once, for 30 minutes */
                            ticket: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/invites/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What an invitation is for (no sign-in needed) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    token: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account_exists: boolean;
                            email: string;
                            /** Format: date-time */
                            expires_at: string;
                            invited_by?: string;
                            role: string;
                            workspace: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/invites/{token}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept an invitation
         * @description A new address sets name and password here; an address with an account must be signed in as it.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    token: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        password?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            user: {
                                /** Format: date-time */
                                created_at: string;
                                email: string;
                                id: string;
                                name: string;
                                /** @description authenticator two-factor sign-in is on */
                                two_factor: boolean;
                            };
                            workspace_id?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in person and their workspaces */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            user: {
                                /** Format: date-time */
                                created_at: string;
                                email: string;
                                id: string;
                                name: string;
                                /** @description authenticator two-factor sign-in is on */
                                two_factor: boolean;
                            };
                            workspaces: {
                                /** Format: date-time */
                                created_at: string;
                                id: string;
                                name: string;
                                role: "owner" | "admin" | "editor" | "viewer";
                            }[] | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change your name */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            email: string;
                            id: string;
                            name: string;
                            /** @description authenticator two-factor sign-in is on */
                            two_factor: boolean;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/me/2fa/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Turn two-factor off */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ok: boolean;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/2fa/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Confirm a code and turn two-factor on */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description shown once; each code signs in one time */
                            recovery_codes: string[] | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/2fa/recovery-codes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the recovery codes */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description shown once; each code signs in one time */
                            recovery_codes: string[] | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/2fa/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start authenticator setup */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description base32, for manual entry */
                            secret: string;
                            /** @description otpauth link for a QR code */
                            uri: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change your password
         * @description Signs out every other session.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        current_password: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ok: boolean;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/platform/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Plans of the platform an API can be on */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            plans: {
                                code: string;
                                /** @description apps people connect (dynamic registration, client ID metadata documents) may be turned on */
                                connected_apps: boolean;
                                custom_domain: boolean;
                                /** @description people may make their own API keys (spec 5.6) when the owner turns keys on */
                                end_user_keys: boolean;
                                max_customers: number;
                                monthly_requests: number;
                                name: string;
                                price_monthly_cents: number;
                                purchasable: boolean;
                                remove_branding: boolean;
                                teams: boolean;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/slugs/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether a slug is free, and why not */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            available: boolean;
                            reason?: string;
                            slug: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a workspace you own */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            id: string;
                            name: string;
                            role: "owner" | "admin" | "editor" | "viewer";
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspaces/{ws}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A workspace and your role in it */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    ws: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            id: string;
                            name: string;
                            role: "owner" | "admin" | "editor" | "viewer";
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a workspace and everything in it (owner) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    ws: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Rename a workspace (admin) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    ws: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            id: string;
                            name: string;
                            role: "owner" | "admin" | "editor" | "viewer";
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/workspaces/{ws}/apis": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's APIs */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    ws: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            apis: {
                                /** Format: date-time */
                                created_at: string;
                                customers: number;
                                id: string;
                                logo_url?: string;
                                month_requests: number;
                                name: string;
                                plan_code: string;
                                portal_url: string;
                                /** Format: date-time */
                                sdk_last_seen_at?: string;
                                slug: string;
                                status: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        /** Register an API (editor); answers the SDK secret */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    ws: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        api_base_url?: "" | string;
                        name: string;
                        /** @default payg */
                        preset: "payg" | "free" | "subscriptions";
                        /** @description generated from the name when empty */
                        slug?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            api: {
                                accent_color: string;
                                api_base_url: string;
                                auto_recharge_allowed: boolean;
                                billable_status_codes: number[] | null;
                                /** Format: date-time */
                                created_at: string;
                                docs_url: string;
                                domain: {
                                    allowed: boolean;
                                    /** Format: date-time */
                                    checked_at?: string;
                                    cname_target: string;
                                    domain?: string;
                                    error?: string;
                                    status: "none" | "pending" | "verified" | "active" | "failed";
                                    txt_name?: string;
                                    txt_value?: string;
                                };
                                /** Format: date-time */
                                first_usage_at?: string;
                                id: string;
                                key_header: string;
                                logo_url?: string;
                                low_balance_micro: number;
                                min_topup_cents: number;
                                monthly_quota: number;
                                name: string;
                                payg_enabled: boolean;
                                payments: {
                                    account_id?: string;
                                    account_name?: string;
                                    charges_enabled: boolean;
                                    configured: boolean;
                                    connected: boolean;
                                    /** Format: date-time */
                                    connected_at?: string;
                                    livemode: boolean;
                                };
                                plan: {
                                    code: string;
                                    /** @description apps people connect (dynamic registration, client ID metadata documents) may be turned on */
                                    connected_apps: boolean;
                                    custom_domain: boolean;
                                    /** @description people may make their own API keys (spec 5.6) when the owner turns keys on */
                                    end_user_keys: boolean;
                                    max_customers: number;
                                    monthly_requests: number;
                                    name: string;
                                    price_monthly_cents: number;
                                    purchasable: boolean;
                                    remove_branding: boolean;
                                    teams: boolean;
                                };
                                /** Format: date-time */
                                plan_grace_until?: string;
                                /** Format: date-time */
                                plan_period_end?: string;
                                plan_status: "active" | "past_due" | "canceled";
                                plans_enabled: boolean;
                                portal_url: string;
                                /** Format: date-time */
                                previous_secret_valid_until?: string;
                                price_per_request_micro: number;
                                privacy_url: string;
                                role: "owner" | "admin" | "editor" | "viewer";
                                rps: number;
                                sdk_agent?: string;
                                /** Format: date-time */
                                sdk_first_seen_at?: string;
                                /** Format: date-time */
                                sdk_last_seen_at?: string;
                                secret_prefix: string;
                                signup_mode: "open" | "approval" | "invite";
                                slug: string;
                                status: "active" | "suspended";
                                support_email: string;
                                suspended_reason?: string;
                                tagline: string;
                                terms_url: string;
                                topup_amounts_cents: number[] | null;
                                website_url: string;
                                welcome_credit_micro: number;
                                workspace_id: string;
                            };
                            /** @description the SDK secret key */
                            secret: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspaces/{ws}/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The audit log, newest first; narrowed by API, action, actor or customer */
        get: {
            parameters: {
                query?: {
                    /** @description an action (`member.invite`), or a family of actions (`member`: every `member.…`) */
                    action?: string;
                    /** @description events by this actor (a person, a workspace key or a system actor) */
                    actor_id?: string;
                    api_id?: string;
                    before?: string;
                    /** @description events about this customer */
                    customer_id?: string;
                    limit?: number;
                };
                header?: never;
                path: {
                    ws: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            events: {
                                action: string;
                                actor_id: string;
                                actor_name: string;
                                actor_type: string;
                                api_id?: string;
                                api_name?: string;
                                /** Format: date-time */
                                created_at: string;
                                customer_id?: string;
                                customer_name?: string;
                                details: {
                                    [key: string]: unknown;
                                };
                                id: string;
                                ip: string;
                                summary: string;
                                target_id: string;
                                target_type: string;
                            }[] | null;
                            /** @description cursor for the next older page */
                            next_before?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspaces/{ws}/invites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Invite someone by e-mail (admin) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    ws: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        email: string;
                        role: "admin" | "editor" | "viewer";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            email: string;
                            /** Format: date-time */
                            expires_at: string;
                            id: string;
                            role: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspaces/{ws}/invites/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an open invitation (admin) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    ws: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspaces/{ws}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Workspace keys (never the key itself) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    ws: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            keys: {
                                /** Format: date-time */
                                created_at: string;
                                id: string;
                                /** Format: date-time */
                                last_used_at?: string;
                                name: string;
                                /** @description the visible start of the key */
                                prefix: string;
                                role: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        /** Create a workspace key for automation (admin); shown once */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    ws: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        role?: "admin" | "editor" | "viewer";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            id: string;
                            /** Format: date-time */
                            last_used_at?: string;
                            name: string;
                            /** @description the visible start of the key */
                            prefix: string;
                            role: string;
                        } & {
                            /** @description shown once */
                            key: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspaces/{ws}/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a workspace key (admin) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    ws: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspaces/{ws}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Members and open invitations */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    ws: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            invites: {
                                /** Format: date-time */
                                created_at: string;
                                email: string;
                                /** Format: date-time */
                                expires_at: string;
                                id: string;
                                role: string;
                            }[] | null;
                            members: {
                                email: string;
                                /** Format: date-time */
                                joined_at: string;
                                name: string;
                                role: "owner" | "admin" | "editor" | "viewer";
                                two_factor: boolean;
                                user_id: string;
                            }[] | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspaces/{ws}/members/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a member, or leave (admin, or yourself) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    user_id: string;
                    ws: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspaces/{ws}/members/{user_id}/role": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change a member's role (admin; owner for the owner role) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    user_id: string;
                    ws: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        role: "owner" | "admin" | "editor" | "viewer";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            email: string;
                            /** Format: date-time */
                            joined_at: string;
                            name: string;
                            role: "owner" | "admin" | "editor" | "viewer";
                            two_factor: boolean;
                            user_id: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sdk/v1/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What changed after a cursor: customers, keys, removals and balances
         * @description Start from a snapshot's sync_cursor, then pass each answer's cursor as since. Each object appears at most once per answer, with its newest state, in the order of its latest change; has_more: ask again at once. A cursor older than the tombstones kept (7 days) answers 410 with type urn:gatehouse:problem:cursor_expired: read the snapshot again.
         */
        get: {
            parameters: {
                query: {
                    /** @description changed objects per answer */
                    limit?: number;
                    shape?: "full" | "wire";
                    /** @description a cursor: a snapshot's sync_cursor or a previous answer's cursor */
                    since: string;
                    /** @description seconds to hold the request while nothing is above since: it answers as soon as a change of the API commits on any node, or the empty page at the same cursor when the wait ends */
                    wait?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description moved balances of customers not in customers */
                            balances: {
                                balance_seq: number;
                                credit_balance_micro: number;
                                id: string;
                            }[];
                            billable_status_codes: number[];
                            /** @description pass as since next time */
                            cursor: string;
                            /** @description added or changed, with their balances */
                            customers: {
                                /** @description grows with every balance change; orders balance observations of one customer */
                                balance_seq: number;
                                credit_balance_micro: number;
                                effective: {
                                    billing_model: string;
                                    /** @description null: no quota; 0 blocks every request */
                                    monthly_quota: number | null;
                                    price_per_request_micro: number;
                                    /** @description 0 = no limit */
                                    rps: number;
                                    source: string;
                                };
                                id: string;
                                month_requests: number;
                                policy_valid_until: string | null;
                                /** @description `pending` only with shape=full */
                                status: "active" | "pending" | "suspended";
                                /** @description shape=full only */
                                token_key_id?: string;
                                usage_policy_id: string | null;
                            }[];
                            /** Format: date-time */
                            generated_at: string;
                            /** @description more changes wait: ask again at once with cursor */
                            has_more: boolean;
                            /** @description added */
                            keys: {
                                customer_id: string;
                                /** Format: uuid */
                                id: string;
                                /** @description lowercase SHA-256 hex of the full API key */
                                key_hash: string;
                            }[];
                            platform_hard_cap: boolean;
                            platform_monthly_allowance: {
                                hard_cap: boolean;
                                limit: number;
                                /** Format: date-time */
                                period_end: string;
                                /** Format: date-time */
                                period_start: string;
                                remaining: number;
                                used: number;
                            };
                            platform_monthly_limit: number;
                            platform_monthly_remaining: number;
                            platform_monthly_used: number;
                            /** Format: date-time */
                            platform_period_end: string;
                            /** @description archived or deleted customer ids; their keys go with them */
                            removed_customers: string[];
                            /** @description revoked or deleted key ids */
                            removed_keys: string[];
                            tenant_id: string;
                            tenant_name: string;
                            tenant_status: "active" | "suspended";
                        };
                    };
                };
                /** @description Default Response */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorModel"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sdk/v1/keys/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Look up a key hash missing from the snapshot
         * @description An unknown, revoked or malformed hash answers 200 {"valid": false}.
         */
        get: {
            parameters: {
                query?: {
                    key_hash?: string | string[];
                    shape?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description An unknown, revoked or malformed hash is `{"valid": false}` */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SdkVerifyBody"];
                    };
                };
                /** @description SDK answers are JSON objects, errors too (wire protocol section 1) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SdkError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sdk/v1/snapshot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Customers, key hashes, balances and policy for an SDK
         * @description Stamped with a strictly rising generated_at. `shape=full` adds the pending status the spec knows. Answers 304 to a matching If-None-Match.
         */
        get: {
            parameters: {
                query?: {
                    shape?: "full" | "wire";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SnapshotBody"];
                    };
                };
                /** @description SDK answers are JSON objects, errors too (wire protocol section 1) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SdkError"];
                    };
                };
                /** @description SDK answers are JSON objects, errors too (wire protocol section 1) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SdkError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sdk/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report usage items; each is applied exactly once
         * @description Answers one result per item: accepted, duplicate (sent before with the same payload) or rejected with a detail.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SdkUsageReport"];
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SdkUsageAnswer"];
                    };
                };
                /** @description SDK answers are JSON objects, errors too (wire protocol section 1) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SdkError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ErrorDetail: {
            location?: string;
            message?: string;
            value?: unknown;
        };
        ErrorModel: {
            detail?: string;
            errors?: {
                location?: string;
                message?: string;
                value?: unknown;
            }[] | null;
            instance?: string;
            status?: number;
            title?: string;
            /**
             * Format: uri
             * @default about:blank
             */
            type: string;
        };
        /** @description The platform allowance of the API this month, in the nested shape older SDKs read */
        SdkAllowance: {
            hard_cap: boolean;
            limit: number;
            /** Format: date-time */
            period_end: string;
            /** Format: date-time */
            period_start: string;
            /** @description max(0, limit - used) */
            remaining: number;
            used: number;
        };
        /** @description A customer's balance as of balance_seq (spec 2.5) */
        SdkBalance: {
            balance_seq: number;
            credit_balance_micro: number;
            id: string;
        };
        SdkCustomer: {
            /** @description grows with every balance change; orders balance observations of one customer */
            balance_seq: number;
            credit_balance_micro: number;
            effective: components["schemas"]["SdkEffective"];
            id: string;
            /** @description requests this calendar month, every status */
            month_requests: number;
            /** @description null exactly when usage_policy_id is */
            policy_valid_until: string | null;
            /** @description `pending` only with `shape=full`; otherwise a pending customer reads `suspended` */
            status: "active" | "suspended" | "pending";
            /**
             * Format: uuid
             * @description `shape=full` only: the api_key_id of usage of requests made with access tokens
             */
            token_key_id?: string;
            usage_policy_id: string | null;
        };
        /** @description The customer's limits and price in force (spec 2.2 Effective) */
        SdkEffective: {
            billing_model: "payg" | "subscription" | "none";
            /** @description null: no monthly quota; 0 blocks every request */
            monthly_quota: number | null;
            price_per_request_micro: number;
            /** @description requests per second; 0 = no limit */
            rps: number;
            source: "custom" | "plan" | "payg";
        };
        /** @description SDK answers are JSON objects, errors too (wire protocol section 1) */
        SdkError: {
            detail?: string;
            error: string;
        };
        SdkKey: {
            /** @description a customer of the same snapshot */
            customer_id: string;
            /**
             * Format: uuid
             * @description sent back as api_key_id
             */
            id: string;
            /** @description lowercase SHA-256 hex of the full API key */
            key_hash: string;
        };
        /** @description `shape=full` only: a person of the sign-in service and the customer their calls are metered to */
        SdkMember: {
            customer_id: string;
            person_id: string;
        };
        SdkResourceServer: {
            permissions: string[];
            resource: string;
        };
        /** @description `shape=full` only: what a server needs to accept the API's access tokens */
        SdkSignin: {
            /** @description the API's issuer identifier: tokens' `iss`, and where its JWKS is (`/oauth/jwks`) */
            issuer: string;
            servers: components["schemas"]["SdkResourceServer"][];
        };
        SdkUsageAnswer: {
            /** @description Every customer an accepted or duplicate item names, as of after this report: its balance_seq covers those items (issue 27). Always sent by this server; absent from older ones. */
            balances?: components["schemas"]["SdkBalance"][];
            results: components["schemas"]["SdkUsageResult"][];
        };
        /** @description Unknown properties are ignored. A bad item is rejected alone, never the report. */
        SdkUsageItem: {
            /**
             * Format: uuid
             * @description a UUID
             */
            api_key_id: string;
            /** @description an integer from 1 to 10000000 */
            count: number;
            /** @description a UUID (or an older SDK key of up to 128 letters, digits and ._:-) */
            idempotency_key: string;
            /** @description a UTC hour like 2026-08-04T00:00:00Z */
            period_start: string;
            /** @description an integer from 100 to 599 */
            status_code: number;
            /** @description a UUID when present */
            usage_policy_id?: string | null;
        };
        SdkUsageReport: {
            items: components["schemas"]["SdkUsageItem"][];
        };
        SdkUsageResult: {
            detail?: string;
            /** @description as the item sent it */
            idempotency_key: string;
            status: "accepted" | "duplicate" | "rejected";
        };
        /** @description An unknown, revoked or malformed hash is `{"valid": false}` */
        SdkVerifyBody: {
            /** @enum {boolean} */
            valid: false;
        } | {
            billable_status_codes: number[];
            customer: components["schemas"]["SdkCustomer"];
            /** Format: uuid */
            key_id: string;
            /** @enum {boolean} */
            valid: true;
        };
        SnapshotBody: {
            /** @description responses with these statuses are charged; every status is reported, since all count toward quotas */
            billable_status_codes: number[];
            customers: components["schemas"]["SdkCustomer"][];
            /**
             * Format: date-time
             * @description rises strictly per API
             */
            generated_at: string;
            /** @description every key names a customer of this snapshot */
            keys: components["schemas"]["SdkKey"][];
            members?: components["schemas"]["SdkMember"][];
            platform_hard_cap: boolean;
            platform_monthly_allowance: components["schemas"]["SdkAllowance"];
            platform_monthly_limit: number;
            /** @description max(0, limit - used) */
            platform_monthly_remaining: number;
            platform_monthly_used: number;
            /**
             * Format: date-time
             * @description the first instant of next month (UTC), fixed for the period
             */
            platform_period_end: string;
            signin?: components["schemas"]["SdkSignin"];
            tenant_id: string;
            tenant_name: string;
            /** @description suspended: every customer reads suspended */
            tenant_status: "active" | "suspended";
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
