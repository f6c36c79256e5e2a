// Placeholder until the widget issue lands.
export {};
