export * from './tokens';
export * from './sessions';
export * from './auth-hook';
export * from './passwords';
export * from './session.routes';
export * from './roles';
export * from './impersonation';
export * from './password-signin';
