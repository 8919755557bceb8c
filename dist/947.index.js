export const id = 947;
export const ids = [947];
export const modules = {

/***/ 4947:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   retry: () => (/* reexport safe */ _octokit_plugin_retry__WEBPACK_IMPORTED_MODULE_0__.L),
/* harmony export */   throttling: () => (/* reexport safe */ _octokit_plugin_throttling__WEBPACK_IMPORTED_MODULE_1__.A)
/* harmony export */ });
/* harmony import */ var _octokit_plugin_retry__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9735);
/* harmony import */ var _octokit_plugin_throttling__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6856);
/**
 * Octokit's retry and throttling plugins (and bottleneck, which both schedule
 * with), imported together by octokit.ts when a step first calls GitHub: one
 * chunk of the bundle, never read by a step that does not.
 */




/***/ })

};

//# sourceMappingURL=947.index.js.map