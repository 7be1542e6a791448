/** multipart/form-data parsing is shared: see ../shared/multipart. */
export * from '../shared/multipart';
